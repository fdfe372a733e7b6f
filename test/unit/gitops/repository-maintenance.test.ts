import { wantsMaintenance } from '../../../src/gitops/repository-maintenance';

describe('when a commit asks for its repository maintenance', () => {
  it('asks after a commit of 100 files or more, and on every 500th commit record', () => {
    expect(wantsMaintenance(100, 7n)).toBe(true);
    expect(wantsMaintenance(99, 7n)).toBe(false);
    expect(wantsMaintenance(1, 1000n)).toBe(true);
    expect(wantsMaintenance(1, 1001n)).toBe(false);
  });
});
