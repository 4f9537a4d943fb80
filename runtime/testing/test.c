#include "runtime/testing/test.h"

kiln_test_state_t kiln_test_state;

int kiln_test_run_all(const kiln_test_case_t* cases, int count) {
  int passed = 0, failed = 0;
  for (int i = 0; i < count; ++i) {
    printf("[ RUN      ] %s\n", cases[i].name);
    fflush(stdout);
    kiln_test_state.failures = 0;
    cases[i].fn();
    if (kiln_test_state.failures) {
      printf("[  FAILED  ] %s\n", cases[i].name);
      ++failed;
    } else {
      printf("[       OK ] %s\n", cases[i].name);
      ++passed;
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
