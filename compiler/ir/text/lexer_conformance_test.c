// The lexer over every file of IREE's e2e check tests in ../shared (every
// token valid). Registered only when ../shared/conformance is present, like
// the conformance ctests.
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "compiler/ir/text/lexer.h"
#include "runtime/testing/test.h"

static int lex_dir(const char* dir) {
  DIR* d = opendir(dir);
  if (!d) return -1;
  int files = 0;
  struct dirent* e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n < 6 || strcmp(e->d_name + n - 5, ".mlir")) continue;
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
    FILE* f = fopen(path, "rb");
    if (!f) continue;
    static char text[1 << 20];
    size_t size = fread(text, 1, sizeof(text), f);
    fclose(f);
    kiln_mlir_lexer_t l;
    kiln_mlir_lexer_init(&l, text, size, 1);
    size_t tokens = 0;
    for (;;) {
      kiln_mlir_token_t t = kiln_mlir_lexer_next(&l);
      if (t.kind == KILN_MLIR_TOK_EOF) break;
      if (t.kind == KILN_MLIR_TOK_ERROR) {
        KILN_TEST_FAIL_("%s:%u:%u: bad token '%.*s'", path, t.line, t.column,
                        KILN_SV_ARG(t.spelling));
        break;
      }
      ++tokens;
    }
    KILN_EXPECT_TRUE(tokens > 10);
    ++files;
  }
  closedir(d);
  return files;
}

KILN_TEST(lex_conformance_files) {
  int a = lex_dir(KILN_CONFORMANCE_DIR "/stablehlo_ops");
  int b = lex_dir(KILN_CONFORMANCE_DIR "/tosa_ops");
  KILN_EXPECT_TRUE(a > 40);
  KILN_EXPECT_TRUE(b > 20);
}

KILN_TEST_MAIN(KILN_TEST_CASE(lex_conformance_files))
