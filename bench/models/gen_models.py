#!/usr/bin/python3
"""Writes ONNX benchmark models with seeded random weights into OUT_DIR.

Usage: /usr/bin/python3 gen_models.py OUT_DIR [MODEL...]

Models (batch 1, layer shapes as published; weights are seeded random, not
trained): mlp, resnet50 (v1.5: stride in the 3x3), mobilenetv2 (1.0),
squeezenet (1.1), densenet121, efficientnet_b0 (SiLU, depthwise,
squeeze-excite), bert (BERT-base encoder: 12 layers, hidden 768, 12 heads,
intermediate 3072, sequence 128, f32; the input is the embedding output).
Opset 17, plain ops only. For each model NAME it writes NAME.onnx and
NAME_input.npy and checks the model with onnx.checker.

Weights use He-style scales and BatchNormalization statistics near the
identity so that activations keep an O(1) magnitude through the network:
outputs are then meaningful to compare at rtol 1e-3.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Graph:
  """A small ONNX graph builder: fresh names, initializers, nodes."""

  def __init__(self, rng):
    self.rng = rng
    self.nodes = []
    self.inits = []
    self.count = 0

  def name(self, prefix):
    self.count += 1
    return "%s_%d" % (prefix, self.count)

  def const(self, array, prefix="c"):
    n = self.name(prefix)
    self.inits.append(numpy_helper.from_array(np.asarray(array), n))
    return n

  def op(self, op_type, inputs, **attrs):
    out = self.name(op_type.lower())
    self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
    return out

  def he(self, shape, fan_in, gain=2.0):
    return (self.rng.standard_normal(shape) *
            np.sqrt(gain / fan_in)).astype(np.float32)

  # Convnet pieces.
  def conv(self, x, cin, cout, k, stride=1, group=1, bias=False, pad=None,
           gain=2.0):
    pad = k // 2 if pad is None else pad
    w = self.const(self.he((cout, cin // group, k, k), cin // group * k * k,
                           gain), "w")
    ins = [x, w]
    if bias:
      ins.append(self.const(
          (self.rng.standard_normal(cout) * 0.01).astype(np.float32), "b"))
    return self.op("Conv", ins, kernel_shape=[k, k], strides=[stride, stride],
                   pads=[pad] * 4, group=group)

  def bn(self, x, c):
    r = self.rng
    scale = (1.0 + 0.1 * r.standard_normal(c)).astype(np.float32)
    bias = (0.05 * r.standard_normal(c)).astype(np.float32)
    mean = (0.05 * r.standard_normal(c)).astype(np.float32)
    var = (1.0 + 0.1 * r.random(c)).astype(np.float32)
    return self.op("BatchNormalization",
                   [x, self.const(scale, "s"), self.const(bias, "b"),
                    self.const(mean, "m"), self.const(var, "v")],
                   epsilon=1e-5)

  def relu(self, x):
    return self.op("Relu", [x])

  def relu6(self, x):
    return self.op("Clip", [x, self.const(np.float32(0.0)),
                            self.const(np.float32(6.0))])

  def silu(self, x):
    return self.op("Mul", [x, self.op("Sigmoid", [x])])

  def fc(self, x, cin, cout, gain=1.0):
    w = self.const(self.he((cout, cin), cin, gain), "fcw")
    b = self.const(np.zeros(cout, np.float32), "fcb")
    return self.op("Gemm", [x, w, b], transB=1)

  def classifier(self, x, cin, classes=1000):
    x = self.op("GlobalAveragePool", [x])
    x = self.op("Flatten", [x], axis=1)
    return self.fc(x, cin, classes)

  def model(self, name, x_name, x_shape, y, y_shape):
    self.nodes[-1].output[0] = "output"
    graph = helper.make_graph(
        self.nodes, name,
        [helper.make_tensor_value_info(x_name, TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, y_shape)],
        self.inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


IMAGE = [1, 3, 224, 224]


def mlp(rng):
  dims = [256, 512, 512, 10]
  g = Graph(rng)
  x = "x"
  for i in range(len(dims) - 1):
    w = g.const(g.he((dims[i], dims[i + 1]), dims[i]), "w")
    b = g.const(np.zeros(dims[i + 1], np.float32), "b")
    x = g.op("Gemm", [x, w, b])
    if i < len(dims) - 2:
      x = g.relu(x)
  return g.model("mlp", "x", [1, dims[0]], x, [1, dims[-1]]), [1, dims[0]]


def resnet50(rng):
  g = Graph(rng)
  x = g.relu(g.bn(g.conv("x", 3, 64, 7, stride=2), 64))
  x = g.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2],
           pads=[1, 1, 1, 1])
  cin = 64
  for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2),
                                (512, 3, 2)):
    for i in range(blocks):
      s = stride if i == 0 else 1
      cout = width * 4
      y = g.relu(g.bn(g.conv(x, cin, width, 1), width))
      y = g.relu(g.bn(g.conv(y, width, width, 3, stride=s), width))
      # The last conv of a residual branch starts small so that the sum
      # stays O(1) through 16 blocks (zero-init-gamma style, not zero).
      y = g.bn(g.conv(y, width, cout, 1, gain=0.5), cout)
      if i == 0:
        short = g.bn(g.conv(x, cin, cout, 1, stride=s, gain=1.0), cout)
      else:
        short = x
      x = g.relu(g.op("Add", [y, short]))
      cin = cout
  y = g.classifier(x, 2048)
  return g.model("resnet50", "x", IMAGE, y, [1, 1000]), IMAGE


def mobilenetv2(rng):
  g = Graph(rng)
  x = g.relu6(g.bn(g.conv("x", 3, 32, 3, stride=2), 32))
  cin = 32
  for t, c, n, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2),
                     (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                     (6, 320, 1, 1)):
    for i in range(n):
      stride = s if i == 0 else 1
      hidden = cin * t
      y = x
      if t != 1:
        y = g.relu6(g.bn(g.conv(y, cin, hidden, 1), hidden))
      y = g.relu6(g.bn(g.conv(y, hidden, hidden, 3, stride=stride,
                              group=hidden), hidden))
      y = g.bn(g.conv(y, hidden, c, 1, gain=1.0), c)
      if stride == 1 and cin == c:
        y = g.op("Add", [x, y])
      x = y
      cin = c
  x = g.relu6(g.bn(g.conv(x, 320, 1280, 1), 1280))
  y = g.classifier(x, 1280)
  return g.model("mobilenetv2", "x", IMAGE, y, [1, 1000]), IMAGE


def squeezenet(rng):
  g = Graph(rng)

  def fire(x, cin, squeeze, expand):
    s = g.relu(g.conv(x, cin, squeeze, 1, bias=True))
    e1 = g.relu(g.conv(s, squeeze, expand, 1, bias=True))
    e3 = g.relu(g.conv(s, squeeze, expand, 3, bias=True))
    return g.op("Concat", [e1, e3], axis=1)

  def pool(x):
    return g.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2],
                ceil_mode=1)

  x = g.relu(g.conv("x", 3, 64, 3, stride=2, bias=True, pad=0))
  x = pool(x)
  x = fire(x, 64, 16, 64)
  x = fire(x, 128, 16, 64)
  x = pool(x)
  x = fire(x, 128, 32, 128)
  x = fire(x, 256, 32, 128)
  x = pool(x)
  x = fire(x, 256, 48, 192)
  x = fire(x, 384, 48, 192)
  x = fire(x, 384, 64, 256)
  x = fire(x, 512, 64, 256)
  x = g.relu(g.conv(x, 512, 1000, 1, bias=True))
  x = g.op("GlobalAveragePool", [x])
  y = g.op("Flatten", [x], axis=1)
  return g.model("squeezenet", "x", IMAGE, y, [1, 1000]), IMAGE


def densenet121(rng):
  g = Graph(rng)
  growth = 32
  x = g.relu(g.bn(g.conv("x", 3, 64, 7, stride=2), 64))
  x = g.op("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2],
           pads=[1, 1, 1, 1])
  c = 64
  for bi, layers in enumerate((6, 12, 24, 16)):
    for _ in range(layers):
      y = g.conv(g.relu(g.bn(x, c)), c, 4 * growth, 1)
      y = g.conv(g.relu(g.bn(y, 4 * growth)), 4 * growth, growth, 3)
      x = g.op("Concat", [x, y], axis=1)
      c += growth
    if bi < 3:
      x = g.conv(g.relu(g.bn(x, c)), c, c // 2, 1)
      x = g.op("AveragePool", [x], kernel_shape=[2, 2], strides=[2, 2])
      c //= 2
  x = g.relu(g.bn(x, c))
  y = g.classifier(x, c)
  return g.model("densenet121", "x", IMAGE, y, [1, 1000]), IMAGE


def efficientnet_b0(rng):
  g = Graph(rng)
  x = g.silu(g.bn(g.conv("x", 3, 32, 3, stride=2), 32))
  cin = 32
  for e, k, s, c, n in ((1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 5, 2, 40, 2),
                        (6, 3, 2, 80, 3), (6, 5, 1, 112, 3),
                        (6, 5, 2, 192, 4), (6, 3, 1, 320, 1)):
    for i in range(n):
      stride = s if i == 0 else 1
      hidden = cin * e
      y = x
      if e != 1:
        y = g.silu(g.bn(g.conv(y, cin, hidden, 1), hidden))
      y = g.silu(g.bn(g.conv(y, hidden, hidden, k, stride=stride,
                             group=hidden), hidden))
      # Squeeze-and-excitation, squeeze ratio 0.25 of the block's input.
      sq = max(1, cin // 4)
      se = g.op("GlobalAveragePool", [y])
      se = g.silu(g.conv(se, hidden, sq, 1, bias=True))
      se = g.op("Sigmoid", [g.conv(se, sq, hidden, 1, bias=True, gain=1.0)])
      y = g.op("Mul", [y, se])
      y = g.bn(g.conv(y, hidden, c, 1, gain=1.0), c)
      if stride == 1 and cin == c:
        y = g.op("Add", [x, y])
      x = y
      cin = c
  x = g.silu(g.bn(g.conv(x, 320, 1280, 1), 1280))
  y = g.classifier(x, 1280)
  return g.model("efficientnet_b0", "x", IMAGE, y, [1, 1000]), IMAGE


def bert(rng):
  seq, hidden, heads, inter, layers = 128, 768, 12, 3072, 12
  dh = hidden // heads
  g = Graph(rng)

  def linear(x, cin, cout):
    w = g.const(g.he((cin, cout), cin, 1.0), "w")
    b = g.const((0.02 * rng.standard_normal(cout)).astype(np.float32), "b")
    return g.op("Add", [g.op("MatMul", [x, w]), b])

  def layernorm(x):
    gamma = g.const((1.0 + 0.05 * rng.standard_normal(hidden))
                    .astype(np.float32), "ln_g")
    beta = g.const((0.02 * rng.standard_normal(hidden)).astype(np.float32),
                   "ln_b")
    return g.op("LayerNormalization", [x, gamma, beta], axis=-1,
                epsilon=1e-12)

  split_shape = g.const(np.array([1, seq, heads, dh], np.int64), "shape")
  merge_shape = g.const(np.array([1, seq, hidden], np.int64), "shape")
  scale = g.const(np.float32(1.0 / np.sqrt(dh)), "scale")
  sqrt2 = g.const(np.float32(np.sqrt(2.0)), "sqrt2")
  one = g.const(np.float32(1.0), "one")
  half = g.const(np.float32(0.5), "half")

  def heads_of(x, perm):
    return g.op("Transpose", [g.op("Reshape", [x, split_shape])], perm=perm)

  x = "x"
  for _ in range(layers):
    q = heads_of(linear(x, hidden, hidden), [0, 2, 1, 3])  # 1,h,s,d
    k = heads_of(linear(x, hidden, hidden), [0, 2, 3, 1])  # 1,h,d,s
    v = heads_of(linear(x, hidden, hidden), [0, 2, 1, 3])  # 1,h,s,d
    scores = g.op("Mul", [g.op("MatMul", [q, k]), scale])
    probs = g.op("Softmax", [scores], axis=-1)
    ctx = g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
    ctx = g.op("Reshape", [ctx, merge_shape])
    x = layernorm(g.op("Add", [x, linear(ctx, hidden, hidden)]))
    h = linear(x, hidden, inter)
    # GELU, Erf form: 0.5 * h * (1 + erf(h / sqrt(2))).
    gelu = g.op("Mul", [g.op("Mul", [h, half]),
                        g.op("Add", [g.op("Erf", [g.op("Div", [h, sqrt2])]),
                                     one])])
    x = layernorm(g.op("Add", [x, linear(gelu, inter, hidden)]))
  shape = [1, seq, hidden]
  return g.model("bert", "x", shape, x, shape), shape


MODELS = {
    "mlp": mlp,
    "resnet50": resnet50,
    "mobilenetv2": mobilenetv2,
    "squeezenet": squeezenet,
    "densenet121": densenet121,
    "efficientnet_b0": efficientnet_b0,
    "bert": bert,
}


def main():
  if len(sys.argv) < 2:
    sys.exit(__doc__)
  out = sys.argv[1]
  names = sys.argv[2:] or list(MODELS)
  os.makedirs(out, exist_ok=True)
  for name in names:
    rng = np.random.default_rng(0)
    model, shape = MODELS[name](rng)
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    np.save(os.path.join(out, name + "_input.npy"),
            rng.standard_normal(shape).astype(np.float32))
    print("wrote", name)


if __name__ == "__main__":
  main()
