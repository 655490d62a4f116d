// workerd loader of the classifier: the `pith` models (both first-stage nets and the page stage) and ORT's wasm are build-time imports (the wasm arrives as a
// compiled WebAssembly.Module, since Workers cannot compile wasm at run time). No fs, no fetch.

import ortWasm from 'onnxruntime-web/ort-wasm-simd-threaded.wasm';
import unaryModel from '../../../models/pith-unary.onnx';
import pairwiseModel from '../../../models/pith-pairwise.onnx';
import pageModel from '../../../models/pith-page.onnx';
import sidecarJson from '../../../models/pith.json' with { type: 'json' };
import type { Classifier } from '../../types.js';
import { createOnnxClassifier } from '../../core/model/onnx-classifier.js';
import { parseSidecar } from '../../core/model/sidecar.js';

let pending: Promise<Classifier> | null = null;

/**
 * The classifier of this isolate, created on first use (0.4-0.9 s in a fresh isolate: V8 compiles ORT's wasm) and
 * reused after; concurrent first calls share one promise. A failed creation is retried on the next call.
 */
export function getWorkerClassifier(): Promise<Classifier> {
  if (pending === null) {
    const created = createOnnxClassifier({
      unary: new Uint8Array(unaryModel),
      pairwise: new Uint8Array(pairwiseModel),
      page: new Uint8Array(pageModel),
      sidecar: parseSidecar(sidecarJson),
      wasm: { module: ortWasm },
    });
    created.catch(() => {
      if (pending === created) pending = null;
    });
    pending = created;
  }
  return pending;
}
