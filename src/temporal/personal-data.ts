/**
 * No personal data in what every Temporal UI reader sees (summaries, details, search attributes): an e-mail address
 * there (a title or message that quotes one) shows as `[address]`. Imported by workflow code: no Node built-ins.
 */
const ADDRESS = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;

export function withoutAddresses(text: string): string {
  return text.replace(ADDRESS, '[address]');
}
