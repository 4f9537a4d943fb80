// Calls the functions of module_lib.mlir, loaded before it
// (--module=lib.kmod --module=app.kmod): run(x) = 2x + (x + 1).
func.func private @lib.scale(%x: tensor<4xf32>) -> tensor<4xf32>
func.func private @lib.add(%a: tensor<4xf32>, %b: tensor<4xf32>, %out: tensor<4xf32> {iree.abi.output = 0 : index}) -> tensor<4xf32>

func.func @run(%x: tensor<4xf32>) -> tensor<4xf32> {
  %doubled = call @lib.scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %plus_one = arith.addf %x, %one : tensor<4xf32>
  %storage = tensor.empty() : tensor<4xf32>
  %sum = call @lib.add(%doubled, %plus_one, %storage) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %sum : tensor<4xf32>
}
