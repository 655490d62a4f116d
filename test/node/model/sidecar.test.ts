import { describe, expect, it } from 'vitest';
import { PithError } from '../../../src/errors.js';
import { checkSidecar, parseSidecar, type Sidecar } from '../../../src/core/model/sidecar.js';

function sidecar(overrides: Partial<Sidecar> = {}): Sidecar {
  return {
    version: 'pith-test',
    featureSet: 'pith',
    featureSchema: 'test',
    unaryFeatureNames: ['a', 'b', 'c'],
    edgeFeatureNames: ['e0', 'e1'],
    unaryMean: [0, 0, 0],
    unaryStd: [1, 1, 0],
    edgeMean: [0, 0],
    edgeStd: [1, 1],
    lambda: 0.5,
    labels: { '0': 'boilerplate', '1': 'content' },
    pairwiseLabels: ['00', '01', '10', '11'],
    trainingConfig: {},
    dataHash: 'x',
    metrics: {},
    createdAt: '2026-01-01T00:00:00+00:00',
    ...overrides,
  };
}

function thrown(f: () => unknown): PithError {
  try {
    f();
  } catch (err) {
    if (err instanceof PithError) return err;
    throw err;
  }
  throw new Error('expected a PithError');
}

describe('checkSidecar', () => {
  it('accepts the same names in the same order', () => {
    expect(() => checkSidecar(sidecar(), { unary: ['a', 'b', 'c'], edge: ['e0', 'e1'] })).not.toThrow();
  });

  it('names the first differing feature, both names and the file', () => {
    const err = thrown(() => checkSidecar(sidecar(), { unary: ['a', 'x', 'c'], edge: ['e0', 'e1'] }));
    expect(err.code).toBe('model_mismatch');
    expect(err.message).toBe('feature 1 is `x` in the code but `b` in models/pith.json: re-export the model');
  });

  it('catches a different count and edge-feature mismatches', () => {
    const longer = thrown(() => checkSidecar(sidecar(), { unary: ['a', 'b', 'c', 'd'], edge: ['e0', 'e1'] }));
    expect(longer.message).toBe('feature 3 is `d` in the code but missing in models/pith.json: re-export the model');
    const edge = thrown(() => checkSidecar(sidecar({ featureSet: 'paper' }), { unary: ['a', 'b', 'c'], edge: ['e1', 'e0'] }));
    expect(edge.message).toBe('edge feature 0 is `e1` in the code but `e0` in models/paper.json: re-export the model');
  });
});

describe('parseSidecar', () => {
  it('returns a valid sidecar as it is', () => {
    const s = sidecar();
    expect(parseSidecar(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it('rejects statistics whose length differs from the feature names', () => {
    const err = thrown(() => parseSidecar(sidecar({ unaryStd: [1, 1] })));
    expect(err.code).toBe('model_mismatch');
    expect(err.message).toContain('unaryStd');
  });

  it('rejects an unknown feature set and a missing lambda', () => {
    expect(thrown(() => parseSidecar({ ...sidecar(), featureSet: 'other' })).message).toContain('featureSet');
    const { lambda: _lambda, ...noLambda } = sidecar();
    expect(thrown(() => parseSidecar(noLambda)).message).toContain('lambda');
  });
});

describe('parseSidecar, page stage', () => {
  const page = { featureSchema: 'page-1', featureNames: ['p', 'q'], mean: [0, 1], std: [1, 2], lambda: 0.1 };
  it('accepts a sidecar with a page stage and passes its names and lambda on', async () => {
    const parsed = parseSidecar(sidecar({ page }));
    expect(parsed.page?.featureNames).toEqual(['p', 'q']);
    const { sidecarInfo } = await import('../../../src/core/model/sidecar.js');
    expect(sidecarInfo(parsed).page).toEqual({ featureNames: ['p', 'q'], lambda: 0.1 });
    expect(sidecarInfo(sidecar()).page).toBeUndefined();
  });

  it('refuses a page stage with missing or mismatched statistics, or no lambda', () => {
    expect(thrown(() => parseSidecar(sidecar({ page: { ...page, mean: [0] } }))).message).toMatch(/page\.mean of 2 finite numbers/);
    expect(thrown(() => parseSidecar(sidecar({ page: { ...page, featureNames: [] } }))).message).toMatch(/page\.featureNames/);
    expect(thrown(() => parseSidecar(sidecar({ page: { ...page, lambda: -1 } }))).message).toMatch(/page\.lambda/);
  });
});
