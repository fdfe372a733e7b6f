/**
 * The deepest nesting of JSON / YAML flow brackets (`[`, `{`) in a text, outside quoted strings and comments, stopping
 * as soon as it passes `max`. Runs before any parser so that 100,000 `[` never reach a recursive descent. A linear
 * scan over the characters: its cost is bounded by the size limit checked before it.
 */
export function flowDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let quote = '';
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (comment) {
      if (c === '\n') comment = false;
    } else if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if ((c === '"' || c === "'") && /[\s[{,:]|^$/.test(text[i - 1] ?? '')) {
      quote = c;
    } else if (c === '#' && /\s|^$/.test(text[i - 1] ?? '')) {
      comment = true;
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth > max) return true;
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
  }
  return false;
}
