#include "runtime/testing/test.h"
KILN_TEST(placeholder) {}
KILN_TEST_MAIN(KILN_TEST_CASE(placeholder))
