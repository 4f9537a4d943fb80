#!/usr/bin/env python3
# Writes dynamic_matrix_size.mlir: stablehlo.cholesky and triangular_solve
# whose matrix size N is only known at run time (a host loop over the
# columns / rows). Expected values from numpy.linalg (cholesky, and solve
# on the triangle the op reads, unit diagonal set to 1), in float64:
#   /usr/bin/python3 gen_dynamic_matrix_size.py > dynamic_matrix_size.mlir
import numpy as np

rng = np.random.default_rng(7)

def fmt(a):
    a = np.asarray(a)
    if a.ndim == 0:
        return repr(float(a))
    return '[' + ', '.join(fmt(x) for x in a) + ']'

def ty(shape):
    return 'tensor<' + 'x'.join(str(d) for d in shape) + 'xf32>'

def dyn(shape, keep=()):
    return 'tensor<' + 'x'.join(str(d) if i in keep else '?' for i, d in
                                enumerate(shape)) + 'xf32>'

def spd(n, batch=()):
    m = rng.uniform(-1, 1, batch + (n, n))
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(np.float32)

out = []
P = out.append

a4 = spd(4)
P(f'''// cholesky (lower) of a 4x4 matrix given as ?x?.
func.func @cholesky_lower_dynamic() {{
  %a = flow.tensor.dynamic_constant dense<{fmt(a4)}> : {ty(a4.shape)} -> {dyn(a4.shape)}
  %l = stablehlo.cholesky %a, lower = true : {dyn(a4.shape)}
  %c = tensor.cast %l : {dyn(a4.shape)} to {ty(a4.shape)}
  check.expect_almost_eq_const(%c, dense<{fmt(np.linalg.cholesky(a4.astype(np.float64)))}> : {ty(a4.shape)}) : {ty(a4.shape)}
  return
}}
''')
ab = spd(3, (2,))
# Upper: A = U^T U reading A's upper triangle; U = L^T of the lower factor.
u = np.swapaxes(np.linalg.cholesky(ab.astype(np.float64)), -1, -2)
P(f'''// cholesky (upper, U^T U) of a batch of two 3x3 matrices, every dim
// run-time.
func.func @cholesky_upper_batch_dynamic() {{
  %a = flow.tensor.dynamic_constant dense<{fmt(ab)}> : {ty(ab.shape)} -> {dyn(ab.shape)}
  %u = stablehlo.cholesky %a, lower = false : {dyn(ab.shape)}
  %c = tensor.cast %u : {dyn(ab.shape)} to {ty(ab.shape)}
  check.expect_almost_eq_const(%c, dense<{fmt(u)}> : {ty(ab.shape)}) : {ty(ab.shape)}
  return
}}
''')

def tri(n, lower, batch=()):
    m = rng.uniform(-1, 1, batch + (n, n)).astype(np.float32)
    m = m + np.eye(n, dtype=np.float32) * 3
    return m  # both triangles filled: the op must read only one

def solve(a, b, left, lower, transpose, unit):
    a = a.astype(np.float64)
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        idx = np.arange(a.shape[-1])
        t[..., idx, idx] = 1.0
    if transpose:
        t = np.swapaxes(t, -1, -2)
    if left:
        return np.linalg.solve(t, b.astype(np.float64))
    # x op(a) = b  <=>  op(a)^T x^T = b^T
    return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2),
                                       np.swapaxes(b, -1, -2).astype(np.float64)),
                       -1, -2)

cases = [
    ('left_lower', True, True, 'NO_TRANSPOSE', False, (), 4, 2),
    ('left_upper_transpose', True, False, 'TRANSPOSE', False, (2,), 3, 1),
    ('right_lower_unit', False, True, 'NO_TRANSPOSE', True, (), 3, 2),
    ('right_upper', False, False, 'NO_TRANSPOSE', False, (2,), 4, 3),
]
for name, left, lower, tr, unit, batch, n, k in cases:
    a = tri(n, lower, batch)
    bshape = batch + ((n, k) if left else (k, n))
    b = rng.uniform(-2, 2, bshape).astype(np.float32)
    x = solve(a, b, left, lower, tr != 'NO_TRANSPOSE', unit)
    P(f'''// triangular_solve, {name.replace('_', ' ')}, N = {n} at run time.
func.func @solve_{name}_dynamic() {{
  %a = flow.tensor.dynamic_constant dense<{fmt(a)}> : {ty(a.shape)} -> {dyn(a.shape)}
  %b = flow.tensor.dynamic_constant dense<{fmt(b)}> : {ty(b.shape)} -> {dyn(b.shape)}
  %x = "stablehlo.triangular_solve"(%a, %b) {{left_side = {str(left).lower()}, lower = {str(lower).lower()}, transpose_a = #stablehlo<transpose {tr}>, unit_diagonal = {str(unit).lower()}}} : ({dyn(a.shape)}, {dyn(b.shape)}) -> {dyn(b.shape)}
  %c = tensor.cast %x : {dyn(b.shape)} to {ty(b.shape)}
  check.expect_almost_eq_const(%c, dense<{fmt(x)}> : {ty(b.shape)}) : {ty(b.shape)}
  return
}}
''')

print('// stablehlo.cholesky and triangular_solve with a run-time matrix size\n'
      '// (host loops over the columns / rows). Expected values from numpy\n'
      '// (gen_dynamic_matrix_size.py); regenerate with\n'
      '//   /usr/bin/python3 gen_dynamic_matrix_size.py > dynamic_matrix_size.mlir\n')
print('\n'.join(out))
