#!/usr/bin/python3
"""Writes ONNX benchmark models with seeded random weights into OUT_DIR.

Usage: /usr/bin/python3 gen_models.py OUT_DIR [MODEL...]
First slice: only the MLP is written; the convnets and BERT are still to do.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def mlp(rng):
  dims = [256, 512, 512, 10]
  nodes, inits, x = [], [], "x"
  for i in range(len(dims) - 1):
    w = (rng.standard_normal((dims[i], dims[i + 1])) *
         np.sqrt(2.0 / dims[i])).astype(np.float32)
    b = np.zeros(dims[i + 1], np.float32)
    inits += [numpy_helper.from_array(w, "w%d" % i),
              numpy_helper.from_array(b, "b%d" % i)]
    y = "h%d" % i if i < len(dims) - 2 else "logits"
    nodes.append(helper.make_node("Gemm", [x, "w%d" % i, "b%d" % i],
                                  [y + "_pre" if y != "logits" else y]))
    if y != "logits":
      nodes.append(helper.make_node("Relu", [y + "_pre"], [y]))
    x = y
  graph = helper.make_graph(
      nodes, "mlp",
      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, dims[0]])],
      [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                     [1, dims[-1]])], inits)
  return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), (1, dims[0])


MODELS = {"mlp": mlp}


def main():
  out = sys.argv[1]
  names = sys.argv[2:] or list(MODELS)
  os.makedirs(out, exist_ok=True)
  for name in names:
    rng = np.random.default_rng(0)
    model, shape = MODELS[name](rng)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    np.save(os.path.join(out, name + "_input.npy"),
            rng.standard_normal(shape).astype(np.float32))
    print("wrote", name)


if __name__ == "__main__":
  main()
