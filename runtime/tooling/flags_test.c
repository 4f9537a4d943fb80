#include "runtime/tooling/flags.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/testing/test.h"

KILN_FLAG(bool, test_bool, false, "A bool.");
KILN_FLAG(int32, test_i32, 7, "An int32.\nSecond help line.");
KILN_FLAG(int64, test_i64, -3, "An int64.");
KILN_FLAG(double, test_f64, 0.25, "A double.");
KILN_FLAG(string, test_str, "dflt", "A string.");
KILN_FLAG_LIST(test_list, "A list.");
KILN_FLAG_FORWARD_LIST(Xtest, "Forwarded flags.");

// Parses |args| (NULL-terminated, argv[0] included) into a fresh flag state.
static kiln_status_t parse(const char** args, int* out_argc, char*** out_argv,
                           bool* out_help) {
  kiln_flags_reset();
  static char* storage[32];
  int argc = 0;
  while (args[argc]) {
    storage[argc] = (char*)args[argc];
    ++argc;
  }
  storage[argc] = NULL;
  char** argv = storage;
  kiln_status_t status = kiln_flags_parse(&argc, &argv, out_help);
  if (out_argc) *out_argc = argc;
  if (out_argv) *out_argv = argv;
  return status;
}

// Returns what kiln_flags_print_help writes (caller frees).
static char* help_text(void) {
  FILE* file = tmpfile();
  if (!file) return NULL;
  kiln_flags_print_help(file);
  long size = ftell(file);
  rewind(file);
  char* text = calloc(1, (size_t)size + 1);
  if (fread(text, 1, (size_t)size, file) != (size_t)size) text[0] = 0;
  fclose(file);
  return text;
}

KILN_TEST(defaults) {
  kiln_flags_reset();
  KILN_EXPECT_FALSE(kiln_flag_test_bool);
  KILN_EXPECT_EQ_INT(kiln_flag_test_i32, 7);
  KILN_EXPECT_EQ_INT(kiln_flag_test_i64, -3);
  KILN_EXPECT_NEAR(kiln_flag_test_f64, 0.25, 0);
  KILN_EXPECT_STREQ(kiln_flag_test_str, "dflt");
  KILN_EXPECT_EQ_INT(kiln_flag_test_list.count, 0);
}

KILN_TEST(all_types_and_positionals) {
  const char* args[] = {"tool",           "pos0",
                        "--test_bool",    "--test_i32=-42",
                        "--test_i64",     "9000000000",
                        "--test_f64=1e3", "--test_str=\"quoted\"",
                        "pos1",           "--test_list=a",
                        "--test_list",    "2x2xf32=1 2 3 4",
                        "--test_list=",   NULL};
  int argc = 0;
  char** argv = NULL;
  bool help = true;
  KILN_ASSERT_OK(parse(args, &argc, &argv, &help));
  KILN_EXPECT_FALSE(help);
  KILN_EXPECT_TRUE(kiln_flag_test_bool);
  KILN_EXPECT_EQ_INT(kiln_flag_test_i32, -42);
  KILN_EXPECT_EQ_INT(kiln_flag_test_i64, 9000000000LL);
  KILN_EXPECT_NEAR(kiln_flag_test_f64, 1000.0, 0);
  KILN_EXPECT_STREQ(kiln_flag_test_str, "quoted");
  KILN_ASSERT_TRUE(kiln_flag_test_list.count == 3);
  KILN_EXPECT_STREQ(kiln_flag_test_list.values[0], "a");
  KILN_EXPECT_STREQ(kiln_flag_test_list.values[1], "2x2xf32=1 2 3 4");
  KILN_EXPECT_STREQ(kiln_flag_test_list.values[2], "");
  KILN_ASSERT_TRUE(argc == 3);
  KILN_EXPECT_STREQ(argv[0], "tool");
  KILN_EXPECT_STREQ(argv[1], "pos0");
  KILN_EXPECT_STREQ(argv[2], "pos1");
  kiln_flags_reset();
}

KILN_TEST(bool_forms) {
  const char* a1[] = {"t", "--test_bool=true", NULL};
  KILN_ASSERT_OK(parse(a1, NULL, NULL, NULL));
  KILN_EXPECT_TRUE(kiln_flag_test_bool);
  const char* a2[] = {"t", "--test_bool=1", "--test_bool=false", NULL};
  KILN_ASSERT_OK(parse(a2, NULL, NULL, NULL));
  KILN_EXPECT_FALSE(kiln_flag_test_bool);
  const char* a3[] = {"t", "--test_bool=0", NULL};
  KILN_ASSERT_OK(parse(a3, NULL, NULL, NULL));
  KILN_EXPECT_FALSE(kiln_flag_test_bool);
  // A bool never consumes the next argument.
  const char* a4[] = {"t", "--test_bool", "false", NULL};
  int argc = 0;
  KILN_ASSERT_OK(parse(a4, &argc, NULL, NULL));
  KILN_EXPECT_TRUE(kiln_flag_test_bool);
  KILN_EXPECT_EQ_INT(argc, 2);
  kiln_flags_reset();
}

KILN_TEST(forward_list) {
  const char* args[] = {"t",
                        "--Xtest,iree-hal-target-backends=vmvx",
                        "--Xtest",
                        "-O2",
                        "--Xtest=--raw",
                        NULL};
  KILN_ASSERT_OK(parse(args, NULL, NULL, NULL));
  KILN_ASSERT_TRUE(kiln_flag_Xtest.count == 3);
  KILN_EXPECT_STREQ(kiln_flag_Xtest.values[0],
                    "--iree-hal-target-backends=vmvx");
  KILN_EXPECT_STREQ(kiln_flag_Xtest.values[1], "-O2");
  KILN_EXPECT_STREQ(kiln_flag_Xtest.values[2], "--raw");
  kiln_flags_reset();
}

KILN_TEST(double_dash_ends_flags) {
  const char* args[] = {"t", "--test_i32=1", "--", "--test_i32=2", NULL};
  int argc = 0;
  char** argv = NULL;
  KILN_ASSERT_OK(parse(args, &argc, &argv, NULL));
  KILN_EXPECT_EQ_INT(kiln_flag_test_i32, 1);
  KILN_ASSERT_TRUE(argc == 2);
  KILN_EXPECT_STREQ(argv[1], "--test_i32=2");
  kiln_flags_reset();
}

static void expect_error(const char** args, const char* needle) {
  kiln_status_t status = parse(args, NULL, NULL, NULL);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), needle);
  kiln_status_free(status);
}

KILN_TEST(errors) {
  const char* a1[] = {"t", "--foo=1", NULL};
  expect_error(a1, "unknown flag '--foo'; see --help");
  const char* a2[] = {"t", "--test_i32=x1", NULL};
  expect_error(a2, "flag '--test_i32': 'x1' is not a valid int32");
  const char* a3[] = {"t", "--test_i32=4000000000", NULL};
  expect_error(a3, "is not a valid int32");
  const char* a4[] = {"t", "--test_bool=maybe", NULL};
  expect_error(a4, "'maybe' is not a valid bool");
  const char* a5[] = {"t", "--test_f64=1.5x", NULL};
  expect_error(a5, "'1.5x' is not a valid double");
  const char* a6[] = {"t", "--test_i64", NULL};
  expect_error(a6, "flag '--test_i64' needs a value");
  const char* a7[] = {"t", "--test_str", "--test_bool", NULL};
  expect_error(a7, "flag '--test_str' needs a value");
  const char* a8[] = {"t", "--test_list,x", NULL};
  expect_error(a8, "unknown flag '--test_list,x'");
  kiln_flags_reset();
}

KILN_TEST(flagfile) {
  char path[] = "/tmp/kiln_flags_test_XXXXXX";
  int fd = mkstemp(path);
  KILN_ASSERT_TRUE(fd >= 0);
  FILE* file = fdopen(fd, "w");
  fputs(
      "# a comment\n\n// another\n  --test_i32=11  \n--test_list=x y\n"
      "--test_list=z\n--test_bool\n",
      file);
  fclose(file);
  char arg[128];
  snprintf(arg, sizeof(arg), "--flagfile=%s", path);
  const char* args[] = {"t", "--test_i32=5", arg, "--test_list=w", NULL};
  KILN_ASSERT_OK(parse(args, NULL, NULL, NULL));
  KILN_EXPECT_EQ_INT(kiln_flag_test_i32, 11);
  KILN_EXPECT_TRUE(kiln_flag_test_bool);
  KILN_ASSERT_TRUE(kiln_flag_test_list.count == 3);
  KILN_EXPECT_STREQ(kiln_flag_test_list.values[0], "x y");
  KILN_EXPECT_STREQ(kiln_flag_test_list.values[1], "z");
  KILN_EXPECT_STREQ(kiln_flag_test_list.values[2], "w");

  // A bad line is reported with path:line.
  file = fopen(path, "w");
  fputs("--test_i32=1\n--nope=2\n", file);
  fclose(file);
  kiln_status_t status = parse(args, NULL, NULL, NULL);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "unknown flag '--nope'");
  char where[160];
  snprintf(where, sizeof(where), "%s:2", path);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), where);
  kiln_status_free(status);
  remove(path);

  const char* missing[] = {"t", "--flagfile=/nonexistent/kiln/flags", NULL};
  status = parse(missing, NULL, NULL, NULL);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "/nonexistent/kiln/flags");
  kiln_status_free(status);
  kiln_flags_reset();
}

KILN_TEST(help_output) {
  kiln_flags_reset();
  char* text = help_text();
  KILN_ASSERT_TRUE(text != NULL);
  KILN_EXPECT_CONTAINS(text, "# Flags in runtime/tooling/flags_test.c\n");
  KILN_EXPECT_CONTAINS(text, "# Flags in runtime/tooling/flags.c\n");
  KILN_EXPECT_CONTAINS(text,
                       "# An int32.\n# Second help line.\n"
                       "# type: int32, default: 7\n--test_i32=7\n");
  KILN_EXPECT_CONTAINS(text,
                       "# A string.\n# type: string, default: \"dflt\"\n"
                       "--test_str=dflt\n");
  KILN_EXPECT_CONTAINS(text, "# type: bool, default: false\n--test_bool=false");
  KILN_EXPECT_CONTAINS(text, "# type: double, default: 0.25\n--test_f64=0.25");
  KILN_EXPECT_CONTAINS(text,
                       "# type: string list, repeatable\n# --test_list=...");
  // Sorted by name within a file.
  const char* a = strstr(text, "--test_bool=");
  const char* b = strstr(text, "--test_f64=");
  const char* c = strstr(text, "--test_str=");
  KILN_EXPECT_TRUE(a && b && c && a < b && b < c);
  free(text);

  // --help is reported to the caller and shows current values.
  const char* args[] = {"t", "--test_i32=99", "--help", NULL};
  bool help = false;
  FILE* saved = stdout;
  stdout = tmpfile();
  kiln_status_t status = parse(args, NULL, NULL, &help);
  fclose(stdout);
  stdout = saved;
  KILN_EXPECT_OK(status);
  KILN_EXPECT_TRUE(help);
  text = help_text();
  KILN_EXPECT_CONTAINS(text, "--test_i32=99\n");
  free(text);
  kiln_flags_reset();
}

KILN_TEST(help_is_a_flagfile) {
  const char* args[] = {"t", "--test_i32=3", "--test_list=q", "--test_str=s",
                        NULL};
  KILN_ASSERT_OK(parse(args, NULL, NULL, NULL));
  char path[] = "/tmp/kiln_flags_help_XXXXXX";
  int fd = mkstemp(path);
  KILN_ASSERT_TRUE(fd >= 0);
  FILE* file = fdopen(fd, "w");
  kiln_flags_print_help(file);
  fclose(file);
  kiln_flags_reset();
  KILN_ASSERT_OK(kiln_flags_parse_file(path));
  KILN_EXPECT_EQ_INT(kiln_flag_test_i32, 3);
  KILN_EXPECT_STREQ(kiln_flag_test_str, "s");
  KILN_ASSERT_TRUE(kiln_flag_test_list.count == 1);
  KILN_EXPECT_STREQ(kiln_flag_test_list.values[0], "q");
  remove(path);
  kiln_flags_reset();
}

KILN_TEST_MAIN(KILN_TEST_CASE(defaults),
               KILN_TEST_CASE(all_types_and_positionals),
               KILN_TEST_CASE(bool_forms), KILN_TEST_CASE(forward_list),
               KILN_TEST_CASE(double_dash_ends_flags), KILN_TEST_CASE(errors),
               KILN_TEST_CASE(flagfile), KILN_TEST_CASE(help_output),
               KILN_TEST_CASE(help_is_a_flagfile))
