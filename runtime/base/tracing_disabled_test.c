// Without KILN_ENABLE_TRACING every macro must vanish: this file would not
// compile (undeclared zone variables, unused expressions) otherwise. The
// build defines it by default (KILN_ENABLE_TRACING option): undo that here.
#undef KILN_ENABLE_TRACING
#include "runtime/base/tracing.h"
#include "runtime/testing/test.h"

static int side_effects = 0;
__attribute__((unused)) static int bump(void) {
  return ++side_effects;
}

KILN_TEST(macros_compile_away) {
  KILN_TRACE_ZONE_BEGIN(z0);
  KILN_TRACE_ZONE_APPEND_VALUE_I64(z0, bump());
  KILN_TRACE_ZONE_APPEND_ARG_I64(z0, "key", bump());
  KILN_TRACE_COUNTER_I64("counter", "series", bump());
  KILN_TRACE_MESSAGE("never");
  KILN_TRACE(bump();)
  KILN_TRACE_ZONE_END(z0);
  KILN_EXPECT_EQ_INT(side_effects, 0);
}

KILN_TEST_MAIN(KILN_TEST_CASE(macros_compile_away))
