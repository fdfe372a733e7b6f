import { fieldAt } from '../../../src/verification/json-field';

describe('a JSON field by dot path', () => {
  const doc = { status: { ready: true, version: 'v2' }, items: [{ state: 'ok' }], empty: null };

  it('reads nested objects and array indices', () => {
    expect(fieldAt(doc, 'status.ready')).toBe(true);
    expect(fieldAt(doc, 'items.0.state')).toBe('ok');
    expect(fieldAt(doc, 'empty')).toBeNull();
  });

  it('answers undefined for a missing path and never reads inherited properties', () => {
    expect(fieldAt(doc, 'status.missing')).toBeUndefined();
    expect(fieldAt(doc, 'empty.x')).toBeUndefined();
    expect(fieldAt(doc, 'status.constructor')).toBeUndefined();
    expect(fieldAt(doc, 'items.length')).toBe(1);
  });
});
