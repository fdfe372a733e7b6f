import { InvalidInput } from '../errors';
import { refuseIllFormedText } from '../http/text-guard';
import { parseJson } from '../parse/bounded-parse';

/**
 * The bounded JSON parse with the text guard (NUL and lone surrogates from escapes answer 400), refusing duplicate keys: JSON.parse keeps the last of two `"timestamp"` keys, so a signed body could
 * carry a stale timestamp that one reader sees and a fresh one that another sees. A duplicate never resolves to a
 * value here (attack row 27). The scan runs after JSON.parse accepted the text, so it may assume valid JSON.
 */
export function parseStrictJson(text: string): unknown {
  let value: unknown;
  try {
    value = parseJson(text, 'request body');
  } catch {
    throw new InvalidInput('malformed request body');
  }
  refuseIllFormedText({ body: value });
  const stack: { keys: Set<string> | null; keyNext: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top?.keys && top.keyNext) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(key)) throw new InvalidInput(`duplicate key in request body: ${key.slice(0, 64)}`);
        top.keys.add(key);
        top.keyNext = false;
      }
      i = end;
    } else if (c === '{') stack.push({ keys: new Set(), keyNext: true });
    else if (c === '[') stack.push({ keys: null, keyNext: false });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top?.keys) top.keyNext = true;
  }
  return value;
}
