// The parser refuses nesting deeper than 256 levels with a located error
// instead of overflowing its stack. The inputs are generated: 300 nested
// tuple types, 300 nested regions and 300 nested array attributes.
// RUN: python3 -c "print('func.func @f(%%a: ' + 'tuple<' * 300 + 'f32' + '>' * 300 + ') { return }')" > %t.types.mlir
// RUN: not kiln-opt %t.types.mlir 2>&1 | FileCheck %s --check-prefix=TYPES --strict-whitespace
// TYPES: types.mlir:1:{{[0-9]+}}: error: nesting deeper than 256 levels
// The 2 KB source line is shown as a 160-character window around the column.
// TYPES-NEXT: {{^\.\.\.e(<tuple){26}<tu\.\.\.$}}
// TYPES-NEXT: {{^ {83}\^$}}
// RUN: python3 -c "print('module {\n' * 300 + '}\n' * 300)" > %t.regions.mlir
// RUN: not kiln-opt %t.regions.mlir 2>&1 | FileCheck %s --check-prefix=REGIONS
// REGIONS: regions.mlir:257:8: error: nesting deeper than 256 levels
// RUN: python3 -c "print('func.func @f() attributes {a = ' + '[' * 300 + '1' + ']' * 300 + '} { return }')" > %t.attrs.mlir
// RUN: not kiln-opt %t.attrs.mlir 2>&1 | FileCheck %s --check-prefix=ATTRS
// ATTRS: attrs.mlir:1:{{[0-9]+}}: error: nesting deeper than 256 levels
// RUN: python3 -c "print('func.func @f() attributes {m = affine_map<(d0) -> (' + '-' * 300 + 'd0)>} { return }')" > %t.affine.mlir
// RUN: not kiln-opt %t.affine.mlir 2>&1 | FileCheck %s --check-prefix=AFFINE
// AFFINE: affine.mlir:1:{{[0-9]+}}: error: nesting deeper than 256 levels
// And 200 levels (a deep but legitimate input) still parse.
// RUN: python3 -c "print('func.func @f(%%a: ' + 'tuple<' * 200 + 'f32' + '>' * 200 + ') { return }')" > %t.ok.mlir
// RUN: kiln-opt %t.ok.mlir | FileCheck %s --check-prefix=OK
// OK: func.func @f
