// Scalar mutable globals (a counter, a running f32 sum, an index) are state
// of the context like tensor ones: kiln-check-module calls the test
// functions in module order in one context, so each call sees the stores
// of the calls before it. Expected values worked out by hand.
util.global private mutable @counter = 0 : i32
util.global private mutable @sum = 0.5 : f32
util.global private mutable @steps = 7 : index

func.func private @next() -> i32 {
  %c = util.global.load @counter : i32
  %one = arith.constant 1 : i32
  %n = arith.addi %c, %one : i32
  util.global.store %n, @counter : i32
  return %n : i32
}

// Two calls in one invocation: 1 then 2; the sum gets 1.5 + 2.0.
func.func @first_counts_twice() {
  %a = call @next() : () -> i32
  %b = call @next() : () -> i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %a_ok = arith.cmpi eq, %a, %one : i32
  %b_ok = arith.cmpi eq, %b, %two : i32
  check.expect_true(%a_ok) : i1
  check.expect_true(%b_ok) : i1
  %s = util.global.load @sum : f32
  %x = arith.constant 1.5 : f32
  %s1 = arith.addf %s, %x : f32
  util.global.store %s1, @sum : f32
  %steps = util.global.load @steps : index
  %c1 = arith.constant 1 : index
  %steps1 = arith.addi %steps, %c1 : index
  util.global.store %steps1, @steps : index
  return
}

// The next invocation continues from the stored values: counter 3, sum
// 0.5 + 1.5 = 2.0, steps 8.
func.func @second_sees_the_stores() {
  %c = call @next() : () -> i32
  %three = arith.constant 3 : i32
  %c_ok = arith.cmpi eq, %c, %three : i32
  check.expect_true(%c_ok) : i1
  %s = util.global.load @sum : f32
  %want = arith.constant 2.0 : f32
  %s_ok = arith.cmpf oeq, %s, %want : f32
  check.expect_true(%s_ok) : i1
  %steps = util.global.load @steps : index
  %eight = arith.constant 8 : index
  %steps_ok = arith.cmpi eq, %steps, %eight : index
  check.expect_true(%steps_ok) : i1
  return
}
