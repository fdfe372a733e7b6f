/** Comma- or space-separated words typed in a field, as a list (empty text: none). */
export const wordsOf = (text: string) => text.split(/[\s,]+/).filter((w) => w !== '');
