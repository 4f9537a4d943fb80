#!/usr/bin/python3
"""Writes linear_external/: a small ONNX model (y = relu(x @ w + b), graph
"linear") whose weights live in linear_external/weights.bin as external
data, the layout large exported models use. Run with Debian's
/usr/bin/python3 (python3-onnx, python3-numpy); the docs' ONNX guide uses
the files it wrote."""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.external_data_helper import convert_model_to_external_data

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join(here, "linear_external")
os.makedirs(out, exist_ok=True)
w = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0 - 0.5
b = np.array([0.5, -1.0, 0.25], dtype=np.float32)
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w"], ["xw"]),
     helper.make_node("Add", ["xw", "b"], ["z"]),
     helper.make_node("Relu", ["z"], ["y"])],
    "linear",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
convert_model_to_external_data(model, all_tensors_to_one_file=True,
                               location="weights.bin", size_threshold=0)
onnx.save(model, os.path.join(out, "model.onnx"))
