// The ONNX Classifier: the only module that imports onnxruntime-web. Sessions are created once by the caller's
// loader (node-assets.ts, worker-assets.ts) and reused; runs are serialised; each net runs once per page.
//
// ORT's wasm backend is set up for both hosts the same way: one thread, no proxy worker, and the wasm handed
// over by the host so that ORT never fetches anything:
// - Node: the wasm bytes (`{ binary }`); ORT compiles them.
// - workerd: compiling wasm from bytes at run time is forbidden, so the host passes the precompiled module
//   (`{ module }`, a build-time import). ORT gets a small placeholder as `wasmBinary`, and while the first
//   session is created, WebAssembly.instantiate answers the call carrying that placeholder with the module
//   (docs: platform notes). ORT has no other hook for this.

import * as ort from 'onnxruntime-web/wasm';
import { PithError } from '../../errors.js';
import type { Classifier, Potentials, PredictOptions } from '../../types.js';
import { parseSidecar, sidecarInfo, type Sidecar } from './sidecar.js';

/** Where ORT's wasm comes from: its bytes (Node) or a precompiled module (workerd). */
export type OrtWasm = { binary: Uint8Array } | { module: WebAssembly.Module };

export interface ClassifierAssets {
  /** models/<set>-unary.onnx */
  unary: Uint8Array;
  /** models/<set>-pairwise.onnx */
  pairwise: Uint8Array;
  /** models/<set>-page.onnx: the page-level second stage; required when the sidecar has `page`. */
  page?: Uint8Array;
  /** models/<set>.json, parsed */
  sidecar: Sidecar;
  wasm: OrtWasm;
}

// ---- ORT environment: configured once per process/isolate (ORT initialises its wasm only once).

const PLACEHOLDER = new TextEncoder().encode('pith:ort-wasm-module'); // not wasm: no "\0asm" header
let ortConfigured = false;
let precompiled: WebAssembly.Module | null = null;

function isPlaceholder(source: unknown): boolean {
  let bytes: Uint8Array | null = null;
  if (source instanceof ArrayBuffer) bytes = new Uint8Array(source);
  else if (ArrayBuffer.isView(source)) bytes = new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  if (bytes === null || bytes.byteLength !== PLACEHOLDER.byteLength) return false;
  for (let i = 0; i < bytes.byteLength; i++) if (bytes[i] !== PLACEHOLDER[i]) return false;
  return true;
}

function configureOrt(wasm: OrtWasm): void {
  if (ortConfigured) return;
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.proxy = false;
  if ('module' in wasm) {
    precompiled = wasm.module;
    ort.env.wasm.wasmBinary = PLACEHOLDER;
  } else {
    ort.env.wasm.wasmBinary = wasm.binary;
  }
  ort.env.logLevel = 'error';
  ortConfigured = true;
}

/** Runs `create` with WebAssembly.instantiate answering the placeholder with the precompiled module. */
async function withPrecompiledWasm<T>(create: () => Promise<T>): Promise<T> {
  const module = precompiled;
  if (module === null) return create();
  const original = WebAssembly.instantiate;
  const intercept = async (source: unknown, imports?: WebAssembly.Imports): Promise<unknown> => {
    if (isPlaceholder(source)) {
      const instance = await WebAssembly.instantiate(module, imports);
      return { instance, module };
    }
    return (original as (s: unknown, i?: WebAssembly.Imports) => Promise<unknown>).call(WebAssembly, source, imports);
  };
  WebAssembly.instantiate = intercept as typeof WebAssembly.instantiate;
  try {
    return await create();
  } finally {
    WebAssembly.instantiate = original;
  }
}

// ---- the classifier

interface Net {
  session: ort.InferenceSession;
  nFeatures: number;
  nClasses: number;
  mean: Float64Array;
  invStd: Float64Array;
  /** Standardised inputs of the current run (grow-only; see standardise). */
  buffer: Float32Array;
}

/**
 * Standardises raw features: clip((x - mean) / std, ±clip), computed in float64 and rounded once to float32
 * (the same arithmetic as training/common.py). Non-finite inputs become 0 (the training mean).
 * raw: [n, nFeatures] row-major -> [n, nFeatures] row-major.
 */
function standardise(raw: Float32Array, net: Net, clip: number): Float32Array {
  // The result goes into the net's grow-only buffer (runs are serialised and ORT copies its inputs into wasm
  // memory): no large allocation per page.
  if (net.buffer.length < raw.length) net.buffer = new Float32Array(Math.max(raw.length, net.buffer.length * 2));
  const out = net.buffer.subarray(0, raw.length);
  const nF = net.nFeatures;
  const mean = net.mean;
  const invStd = net.invStd;
  const n = raw.length;
  // Each branch stores its own value: a `z` reassigned from the (integer) clip bound made V8 box every double,
  // about 1 MB of garbage per page. The comparisons equal Math.min/max for finite z (-0 included); `z - z` is 0
  // exactly when z is finite (NaN for NaN and ±Infinity), one test instead of Number.isFinite's.
  const hi = +clip;
  const lo = -hi;
  if (clip > 0) {
    for (let k = 0; k < n; ) {
      for (let j = 0; j < nF; j++, k++) {
        const z = (raw[k] - mean[j]) * invStd[j];
        if (z - z !== 0) out[k] = 0;
        else if (z < lo) out[k] = lo;
        else if (z > hi) out[k] = hi;
        else out[k] = z;
      }
    }
  } else {
    for (let k = 0; k < n; ) {
      for (let j = 0; j < nF; j++, k++) {
        const z = (raw[k] - mean[j]) * invStd[j];
        out[k] = z - z !== 0 ? 0 : z;
      }
    }
  }
  return out;
}

function makeNet(session: ort.InferenceSession, nClasses: number, mean: number[], std: number[]): Net {
  return {
    session,
    nFeatures: mean.length,
    nClasses,
    mean: Float64Array.from(mean),
    invStd: Float64Array.from(std, (s) => (s === 0 ? 1 : 1 / s)),
    buffer: new Float32Array(0),
  };
}

async function runNet(net: Net, features: Float32Array, seq: number): Promise<Float32Array> {
  if (seq === 0) return new Float32Array(0);
  const input = new ort.Tensor('float32', features, [1, seq, net.nFeatures]); // [1, seq, nFeatures]
  const outputs = await net.session.run({ [net.session.inputNames[0]]: input });
  const output = outputs[net.session.outputNames[0]];
  const dims = output.dims;
  if (dims.length !== 3 || dims[1] !== seq || dims[2] !== net.nClasses) {
    throw new PithError('model_mismatch', `a net returned shape [${dims.join(', ')}], expected [1, ${seq}, ${net.nClasses}]: re-export the model`);
  }
  const probabilities = new Float32Array(output.data as Float32Array); // [seq, nClasses] row-major; copied out of ORT
  output.dispose();
  return probabilities;
}

async function createSession(bytes: Uint8Array, name: string): Promise<ort.InferenceSession> {
  try {
    return await withPrecompiledWasm(() =>
      ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }),
    );
  } catch (err) {
    throw new PithError('model_missing', `cannot load ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * A Classifier over the two ONNX nets. Checks the nets against the sidecar with a one-block run, so a model whose
 * input width differs from its sidecar fails here rather than on the first page.
 */
export async function createOnnxClassifier(assets: ClassifierAssets): Promise<Classifier> {
  const sidecar = parseSidecar(assets.sidecar);
  configureOrt(assets.wasm);
  const unarySession = await createSession(assets.unary, `models/${sidecar.featureSet}-unary.onnx`);
  const pairwiseSession = await createSession(assets.pairwise, `models/${sidecar.featureSet}-pairwise.onnx`);
  const unary = makeNet(unarySession, 2, sidecar.unaryMean, sidecar.unaryStd);
  const pairwise = makeNet(pairwiseSession, 4, sidecar.edgeMean, sidecar.edgeStd);
  let page: Net | null = null;
  if (sidecar.page) {
    if (!assets.page) {
      throw new PithError('model_missing', `models/${sidecar.featureSet}.json describes a page stage but models/${sidecar.featureSet}-page.onnx was not given: re-export the model (training/page.py export)`);
    }
    const pageSession = await createSession(assets.page, `models/${sidecar.featureSet}-page.onnx`);
    page = makeNet(pageSession, 2, sidecar.page.mean, sidecar.page.std);
  }
  const clip = sidecar.featureClip ?? 0;
  const info = sidecarInfo(sidecar);

  let queue: Promise<unknown> = Promise.resolve();
  const serialised = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task, task);
    queue = result.catch(() => undefined);
    return result;
  };

  const nets: Array<[Net, string]> = [[unary, 'unary'], [pairwise, 'pairwise']];
  if (page) nets.push([page, 'page']);
  for (const [net, file] of nets) {
    try {
      await runNet(net, new Float32Array(2 * net.nFeatures), 2); // [1, 2, nFeatures] zeros
    } catch (err) {
      throw new PithError(
        'model_mismatch',
        `models/${sidecar.featureSet}-${file}.onnx does not take ${net.nFeatures} features as models/${sidecar.featureSet}.json says: re-export the model (${err instanceof Error ? err.message : String(err)})`,
      );
    }
  }

  const classifier: Classifier = {
    info,
    predict(unaryFeatures: Float32Array, edgeFeatures: Float32Array, nBlocks: number, options: PredictOptions = {}): Promise<Potentials> {
      const withPairwise = options.pairwise !== false;
      const nEdges = withPairwise ? Math.max(nBlocks - 1, 0) : 0;
      if (!Number.isInteger(nBlocks) || nBlocks < 0) {
        return Promise.reject(new PithError('invalid_input', `nBlocks must be a non-negative integer, got ${nBlocks}`));
      }
      if (unaryFeatures.length !== nBlocks * unary.nFeatures || (withPairwise && edgeFeatures.length !== nEdges * pairwise.nFeatures)) {
        return Promise.reject(
          new PithError(
            'model_mismatch',
            `features of ${nBlocks} blocks need ${nBlocks} × ${unary.nFeatures} unary and ${nEdges} × ${pairwise.nFeatures} edge values, got ${unaryFeatures.length} and ${edgeFeatures.length}: feature code and models/${sidecar.featureSet}.json disagree`,
          ),
        );
      }
      return serialised(async () => ({
        unary: await runNet(unary, standardise(unaryFeatures, unary, clip), nBlocks), // [nBlocks, 2]
        pairwise: withPairwise ? await runNet(pairwise, standardise(edgeFeatures, pairwise, clip), nEdges) : new Float32Array(0), // [nBlocks - 1, 4]
      }));
    },
  };
  if (page) {
    const pageNet = page;
    classifier.predictPage = (pageFeatures: Float32Array, nBlocks: number): Promise<Float32Array> => {
      if (!Number.isInteger(nBlocks) || nBlocks < 0 || pageFeatures.length !== nBlocks * pageNet.nFeatures) {
        return Promise.reject(
          new PithError('model_mismatch', `page features of ${nBlocks} blocks need ${nBlocks} × ${pageNet.nFeatures} values, got ${pageFeatures.length}: feature code and models/${sidecar.featureSet}.json disagree`),
        );
      }
      return serialised(() => runNet(pageNet, standardise(pageFeatures, pageNet, clip), nBlocks)); // [nBlocks, 2]
    };
  }
  return classifier;
}
