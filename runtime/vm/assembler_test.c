// Assembler tests: good programs and diagnostics with line:col.
#include <string.h>

#include "runtime/vm/vm_test_util.h"

static kiln_status_t assemble(const char* text) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  kiln_status_t status = kiln_vm_assemble(
      text, strlen(text), "t.vmasm", kiln_allocator_system(), &bytes, &length);
  kiln_allocator_free(kiln_allocator_system(), bytes);
  return status;
}

static void expect_error(const char* text, const char* needle) {
  kiln_status_t status = assemble(text);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), needle);
  kiln_status_free(status);
}

KILN_TEST(good_program_with_everything) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_load(
      "# comment\n"
      "module @all\n"
      "import @hal.thing : rI...->r\n"
      "rodata @a align 256 : i8 1 -1 255\n"
      "rodata @b : f64 1.5, -2.25\n"
      "rodata @c : hex \"de ad be ef\"\n"
      "executable @e : \"native-elf-x86_64\" {\n"
      "  entry @k workgroup 4 2 1 local_memory 64 source \"x.mlir:1:2\"\n"
      "  data hex \"00\"\n}\n"
      "func @later_user : ->i export {\n"
      "  attr \"iree.benchmark\" \"entry\"\n"
      "  call @later() -> (%i0)\n  ret %i0\n}\n"
      "func @later : ->i {\n  const.i32 %i0, 0x7fffffff\n"
      "  const.f64 %d3, -inf\n  const.f32 %f0, 1e-3  // comment\n"
      "  ret %i0\n}\n",
      &env));
  kiln_vm_function_t fn;
  KILN_ASSERT_OK(kiln_vm_module_lookup_function_by_name(
      env.module, kiln_make_cstring_view("later_user"), &fn));
  kiln_string_view_t value;
  KILN_EXPECT_TRUE(
      kiln_vm_function_reflection_attr(&fn, "iree.benchmark", &value));
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(value, "entry"));
  KILN_EXPECT_TRUE(
      kiln_string_view_equal_cstr(kiln_vm_function_signature(&fn), "->i"));
  uint16_t regs[5];
  KILN_EXPECT_OK(
      kiln_vm_bytecode_module_function_registers(env.module, 1, regs));
  KILN_EXPECT_EQ_INT(regs[0], 1);
  KILN_EXPECT_EQ_INT(regs[2], 1);
  KILN_EXPECT_EQ_INT(regs[3], 4);
  kiln_vm_rodata_info_t info;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_rodata_at(env.module, 0, &info));
  KILN_EXPECT_EQ_INT(info.alignment, 256);
  KILN_EXPECT_EQ_INT(info.file_offset % 256, 0);
  KILN_EXPECT_EQ_INT(info.data[1], 0xff);
  KILN_EXPECT_OK(kiln_vm_bytecode_module_rodata_at(env.module, 1, &info));
  double d[2];
  memcpy(d, info.data, 16);
  KILN_EXPECT_NEAR(d[1], -2.25, 0);
  kiln_vm_executable_info_t exe;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_executable_at(env.module, 0, &exe));
  KILN_EXPECT_TRUE(exe.has_digest);
  KILN_EXPECT_EQ_INT(exe.entry_point_count, 1);
  kiln_vm_executable_entry_point_t ep;
  KILN_EXPECT_OK(
      kiln_vm_bytecode_module_executable_entry_point_at(env.module, 0, 0, &ep));
  KILN_EXPECT_EQ_INT(ep.workgroup_size[1], 2);
  KILN_EXPECT_EQ_INT(ep.local_memory_bytes, 64);
  KILN_EXPECT_TRUE(
      kiln_string_view_equal_cstr(ep.source_location, "x.mlir:1:2"));
  kiln_vm_test_teardown(&env);
}

// Hex rodata longer than the decoder's 4 KB chunk, with separators: every
// byte lands in order across the chunk boundaries.
KILN_TEST(long_hex_rodata) {
  enum { kBytes = 10000 };
  static char source[64 + 3 * kBytes];
  int n = snprintf(source, sizeof(source), "module @h\nrodata @r : hex \"");
  for (int i = 0; i < kBytes; ++i) {
    n += snprintf(source + n, sizeof(source) - (size_t)n, "%02x%s",
                  (unsigned)((i * 7 + i / 256) & 0xff), i % 3 ? "" : "_");
  }
  snprintf(source + n, sizeof(source) - (size_t)n, "\"\n");
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_load(source, &env));
  kiln_vm_rodata_info_t info;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(env.module, 0, &info));
  KILN_EXPECT_EQ_INT(info.length, kBytes);
  int mismatches = 0;
  for (int i = 0; i < kBytes; ++i) {
    mismatches += info.data[i] != (uint8_t)((i * 7 + i / 256) & 0xff);
  }
  KILN_EXPECT_EQ_INT(mismatches, 0);
  kiln_vm_test_teardown(&env);
}

// A splat is stored as its pattern and length, expanded per context: a
// function reads the expanded bytes.
KILN_TEST(splat_rodata) {
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(
      kiln_vm_test_setup("module @s\n"
                         "rodata @big : splat 100000 x i32 7\n"
                         "rodata @empty : splat 0 x hex \"0102\"\n"
                         "func @last : ->i export {\n"
                         "  rodata.ref %r0, @big\n"
                         "  const.i64 %l0, 99999\n"
                         "  buffer.load.i32 %i0, %r0, %l0\n"
                         "  buffer.length %l1, %r0\n"
                         "  trunc.i64.i32 %i1, %l1\n"
                         "  add.i32 %i0, %i0, %i1\n"
                         "  ret %i0\n"
                         "}\n",
                         NULL, &env));
  kiln_vm_rodata_info_t info;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(env.module, 0, &info));
  KILN_EXPECT_EQ_INT(info.length, 400000);
  KILN_EXPECT_EQ_INT(info.splat_pattern_length, 4);
  KILN_EXPECT_TRUE(info.data == NULL);
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(env.module, 1, &info));
  KILN_EXPECT_EQ_INT(info.length, 0);
  kiln_vm_buffer_t* buffer = NULL;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_buffer(env.module, 0, &buffer));
  KILN_EXPECT_EQ_INT(buffer->length, 400000);
  KILN_EXPECT_TRUE(!buffer->is_mutable);
  int32_t value = 0;
  memcpy(&value, buffer->data + 123456, 4);
  KILN_EXPECT_EQ_INT(value, 7);
  kiln_ref_release(buffer);
  kiln_vm_function_t fn;
  KILN_ASSERT_OK(kiln_vm_module_lookup_function_by_name(
      env.module, kiln_make_cstring_view("last"), &fn));
  kiln_vm_value_t result;
  KILN_ASSERT_OK(kiln_vm_invoke(env.context, fn, NULL, 0, &result, 1, NULL));
  KILN_EXPECT_EQ_INT(result.i32, 7 + 400000);
  kiln_vm_test_teardown(&env);
  // A splat whose pattern does not divide it cannot be written.
  expect_error("module @m\nrodata @r : splat 3 x hex \"\"\n",
               "needs a pattern of 1..64 bytes");
}

// `blob N` takes the caller's bytes; inlining them as hex gives text that
// assembles to the very same module image on its own.
KILN_TEST(blob_rodata) {
  static const uint8_t kFirst[5] = {1, 2, 3, 0xfe, 0xff};
  static const uint8_t kSecond[3] = {0x10, 0x00, 0xab};
  const kiln_vm_asm_blob_t blobs[2] = {{kFirst, 5}, {kSecond, 3}};
  // A string that looks like a blob line is not one (strings stay on their
  // line: a quoted newline is written \0a).
  const char* text =
      "module @b\n"
      "rodata @s : string \"\\0arodata @x : blob 1\"\n"
      "rodata @r1 align 64 : blob 1\n"
      "rodata @r0 align 16 : blob 0\n"
      "rodata @again : blob 1";
  kiln_allocator_t allocator = kiln_allocator_system();
  uint8_t* direct = NULL;
  size_t direct_length = 0;
  KILN_ASSERT_OK(kiln_vm_assemble_with_blobs(text, strlen(text), "t.vmasm",
                                             blobs, 2, allocator, &direct,
                                             &direct_length));
  char* inlined = NULL;
  size_t inlined_length = 0;
  KILN_ASSERT_OK(kiln_vm_asm_inline_blobs(
      text, strlen(text), blobs, 2, allocator, &inlined, &inlined_length));
  KILN_EXPECT_CONTAINS(inlined, "rodata @r1 align 64 : hex \"1000ab\"\n");
  KILN_EXPECT_CONTAINS(inlined, "rodata @r0 align 16 : hex \"010203feff\"\n");
  KILN_EXPECT_CONTAINS(inlined, "rodata @again : hex \"1000ab\"");
  KILN_EXPECT_CONTAINS(inlined, "string \"\\0arodata @x : blob 1\"");
  KILN_EXPECT_EQ_INT(inlined_length, strlen(inlined));
  uint8_t* standalone = NULL;
  size_t standalone_length = 0;
  KILN_ASSERT_OK(kiln_vm_assemble(inlined, inlined_length, "t.vmasm", allocator,
                                  &standalone, &standalone_length));
  KILN_EXPECT_EQ_INT(standalone_length, direct_length);
  KILN_EXPECT_TRUE(standalone_length == direct_length &&
                   memcmp(standalone, direct, direct_length) == 0);
  kiln_vm_test_env_t env;
  KILN_ASSERT_OK(kiln_vm_test_load(inlined, &env));
  kiln_vm_rodata_info_t info;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(env.module, 2, &info));
  KILN_EXPECT_EQ_INT(info.length, 5);
  KILN_EXPECT_TRUE(memcmp(info.data, kFirst, 5) == 0);
  kiln_vm_test_teardown(&env);
  kiln_allocator_free(allocator, direct);
  kiln_allocator_free(allocator, standalone);
  kiln_allocator_free(allocator, inlined);
  // Without the bytes, or past the table: an error at the line.
  expect_error("module @m\nrodata @r : blob 0\n",
               "t.vmasm:2:13: rodata 'blob' is only for in-process callers");
  kiln_status_t status = kiln_vm_assemble_with_blobs(
      "module @m\nrodata @r : blob 2\n", 30, "t.vmasm", blobs, 2, allocator,
      &direct, &direct_length);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "t.vmasm:2:18:");
  kiln_status_free(status);
  status = kiln_vm_asm_inline_blobs("rodata @r : blob 7", 18, blobs, 2,
                                    allocator, &inlined, &inlined_length);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  kiln_status_free(status);
}

KILN_TEST(errors_have_line_and_column) {
  expect_error("func @f : -> {\n  ret\n}\n",
               "t.vmasm:1:1: expected 'module @name' first");
  expect_error("module @m\nfunc @f : -> {\n  bogus.op %i0\n}\n",
               "t.vmasm:3:3: unknown instruction 'bogus.op'");
  expect_error("module @m\nfunc @f : ->i {\n  add.i32 %i0, %f1, %i2\n}\n",
               "t.vmasm:3:16: register '%f1' has the wrong bank");
  expect_error("module @m\nfunc @f : -> {\n  br ^nowhere\n}\n",
               "t.vmasm:3:6: undefined label '^nowhere'");
  expect_error("module @m\nfunc @f : -> {\n  call @g() -> ()\n  ret\n}\n",
               "t.vmasm:3:8: undefined function '@g'");
  expect_error("module @m\nfunc @f : x->y {\n  ret\n}\n",
               "t.vmasm:2:11: signature 'x->y'");
  expect_error("module @m\nfunc @f : -> {\n  const.i32 %i0, 99999999999\n}\n",
               "t.vmasm:3:18: bad or out-of-range integer");
  expect_error("module @m\nrodata @r : hex \"abc\"\n",
               "t.vmasm:2:17: odd number of hex digits");
  expect_error("module @m\nfunc @f : -> {\n  ret\n", "missing '}'");
}

KILN_TEST_MAIN(KILN_TEST_CASE(good_program_with_everything),
               KILN_TEST_CASE(long_hex_rodata), KILN_TEST_CASE(splat_rodata),
               KILN_TEST_CASE(blob_rodata),
               KILN_TEST_CASE(errors_have_line_and_column))
