import { QUANTITY } from '../registry/formats';
import { ownValue } from '../../parse/own-property';

const DECIMAL_EXPONENT: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_POWER: Record<string, number> = { K: 10, M: 20, G: 30, T: 40, P: 50, E: 60 };

/**
 * The value of a resource.Quantity (a YAML number or a string), or undefined when it is not one. Decimal forms go through one
 * string-to-number conversion (`1.1` and `1100m` give the same double), so equal quantities compare equal.
 */
export function quantityValue(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const m = QUANTITY.exec(raw);
  if (!m) return undefined;
  const [, number = '', binary, decimal, exponent] = m;
  if (binary !== undefined) return Number(number) * 2 ** (ownValue(BINARY_POWER, binary) ?? 0);
  const exp = decimal !== undefined ? (ownValue(DECIMAL_EXPONENT, decimal) ?? 0) : Number(exponent ?? 0);
  return Number(`${number}e${exp}`);
}
