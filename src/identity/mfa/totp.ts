import { randomBytes } from 'node:crypto';
import { generate } from '@otplib/totp';
import { generateTOTP } from '@otplib/uri';
import QRCode from 'qrcode';
import { safeEqual } from '../secret-tokens';
import { base32, nodeCrypto } from './otp-plugins';

/** RFC 6238 with the authenticator-app defaults: SHA-1, 6 digits, 30-second steps, server time only (MFA-1). */
export const TOTP_PERIOD = 30;
const ISSUER = 'Delivery Platform';

export function currentStep(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD);
}

/** 20 random bytes (160 bits, RFC 4226's recommendation) from the CSPRNG, base32 for the authenticator app. */
export function newTotpSecret(): string {
  return base32.encode(new Uint8Array(randomBytes(20)));
}

/**
 * The QR code as an 8-bit grayscale PNG, each row filtered against the one above: a black-and-white image needs no
 * colour channels, and pngjs's default (RGBA, the best of five filters tried on every row) took 15 ms of CPU a setup
 * for 4.4 KB where this takes 6.5 ms for 2.5 KB, the same pixels. A new object each time: qrcode and pngjs write the
 * image's size and their defaults into it.
 */
const qrPng = () => ({ rendererOpts: { colorType: 0, filterType: 2 } }) as QRCode.QRCodeToDataURLOptions;

export async function enrollment(secret: string, email: string) {
  const otpauthUri = generateTOTP({ issuer: ISSUER, label: email, secret, period: TOTP_PERIOD, digits: 6 });
  return { secret, otpauthUri, qrCode: await QRCode.toDataURL(otpauthUri, qrPng()) };
}

export function codeForStep(secret: string, step: number): Promise<string> {
  return generate({ secret, epoch: step * TOTP_PERIOD, period: TOTP_PERIOD, digits: 6, crypto: nodeCrypto, base32 });
}

/**
 * The time step whose code matches: the current one or the one before (network delay), never a future one and never
 * further back (MFA-1, ASVS 6.5.5). Whether the step was already used is the caller's atomic check.
 */
export async function matchingStep(secret: string, code: string, nowMs = Date.now()): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const now = currentStep(nowMs);
  let found: number | null = null;
  // Both candidates are computed and compared whatever the outcome, so timing does not reveal which one matched.
  for (const step of [now, now - 1]) {
    if (safeEqual(await codeForStep(secret, step), code) && found === null) found = step;
  }
  return found;
}
