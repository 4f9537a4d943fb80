// The embedding API end to end: sources from memory and files, outputs to
// memory and files (the same bytes), diagnostics through the callback with
// their file:line:col, flag errors, phases, and compilations on four
// threads at once that must give the single-threaded bytes (the ASan build
// runs it too; its tsan label runs it in a TSan build that has the compiler).
#include "compiler/api/compiler_api.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/session/session.h"
#include "runtime/testing/test.h"

static const char kAdd[] =
    "func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> "
    "tensor<2x3xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<2x3xf32>\n"
    "  return %0 : tensor<2x3xf32>\n"
    "}\n";
static const char kAbs[] =
    "func.func @abs(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.abs %a : tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n";
static const char kDot[] =
    "func.func @dot(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> "
    "tensor<2x2xf32> {\n"
    "  %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> "
    "tensor<2x2xf32>\n"
    "  return %0 : tensor<2x2xf32>\n"
    "}\n";
static const char kSum[] =
    "func.func @sum(%a: tensor<8xf32>) -> tensor<f32> {\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across "
    "dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>\n"
    "  return %0 : tensor<f32>\n"
    "}\n";
// %b is never defined: the error is at its use, line 2 column 26.
static const char kUndefinedValue[] =
    "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
    "  return %0 : tensor<4xf32>\n"
    "}\n";

static const char* const kVmvx[] = {"--iree-hal-target-backends=vmvx"};

// A session with |flags| (initializes the compiler; end_session shuts down).
static kiln_compiler_session_t* begin_session(int count,
                                              const char* const* flags) {
  kiln_status_t status = kiln_compiler_global_initialize();
  KILN_EXPECT_OK(status);
  kiln_compiler_session_t* session = NULL;
  KILN_EXPECT_OK(
      kiln_compiler_session_create(kiln_allocator_system(), &session));
  if (session) {
    KILN_EXPECT_OK(kiln_compiler_session_set_flags(session, count, flags));
  }
  return session;
}

static void end_session(kiln_compiler_session_t* session) {
  kiln_compiler_session_destroy(session);
  kiln_compiler_global_shutdown();
}

// Compiles |text| with |session| into |output| (parse, pipeline, output).
static kiln_status_t compile_to(kiln_compiler_session_t* session,
                                const char* name, const char* text,
                                kiln_compiler_output_t* output) {
  kiln_compiler_source_t* source = NULL;
  KILN_RETURN_IF_ERROR(kiln_compiler_source_wrap_buffer(session, name, text,
                                                        strlen(text), &source));
  kiln_compiler_invocation_t* invocation = NULL;
  kiln_status_t status = kiln_compiler_invocation_create(session, &invocation);
  if (!status) {
    status = kiln_compiler_invocation_parse_source(invocation, source);
  }
  if (!status) status = kiln_compiler_invocation_run_pipeline(invocation);
  if (!status) status = kiln_compiler_invocation_output(invocation, output);
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  return status;
}

// Compiles |text| into a malloc'd copy of the module bytes.
static kiln_status_t compile_bytes(kiln_compiler_session_t* session,
                                   const char* name, const char* text,
                                   uint8_t** out_bytes, size_t* out_length) {
  *out_bytes = NULL;
  *out_length = 0;
  kiln_compiler_output_t* output = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_compiler_output_open_memory(kiln_allocator_system(), &output));
  kiln_status_t status = compile_to(session, name, text, output);
  const void* data = NULL;
  size_t length = 0;
  if (!status) status = kiln_compiler_output_map_memory(output, &data, &length);
  if (!status) {
    *out_bytes = (uint8_t*)malloc(length ? length : 1);
    if (length) memcpy(*out_bytes, data, length);
    *out_length = length;
  }
  kiln_compiler_output_destroy(output);
  return status;
}

// Reads all of |path| (malloc'd).
static uint8_t* read_all(const char* path, size_t* out_length) {
  FILE* f = fopen(path, "rb");
  *out_length = 0;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* bytes = (uint8_t*)malloc(size > 0 ? (size_t)size : 1);
  *out_length = fread(bytes, 1, (size_t)size, f);
  fclose(f);
  return bytes;
}

static bool same_bytes(const uint8_t* a, size_t a_length, const uint8_t* b,
                       size_t b_length) {
  return a && b && a_length == b_length && memcmp(a, b, a_length) == 0;
}

// Loads |bytes| and calls |function| on f32 inputs; |result| receives the
// f32 result's |result_count| values.
static void run_f32(const uint8_t* bytes, size_t length, const char* function,
                    size_t input_count, const kiln_hal_dim_t* const* dims,
                    const size_t* ranks, const float* const* inputs,
                    float* result, size_t result_count) {
  kiln_runtime_session_options_t options =
      kiln_runtime_session_options_default();
  options.device_uri = "local-sync";
  kiln_runtime_session_t* session = NULL;
  KILN_ASSERT_OK(
      kiln_runtime_session_create(&options, kiln_allocator_system(), &session));
  KILN_EXPECT_OK(kiln_runtime_session_load_module_memory(
      session, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE));
  kiln_vm_function_t fn;
  KILN_EXPECT_OK(kiln_runtime_session_lookup_function(session, function, &fn));
  kiln_vm_value_t args[4];
  for (size_t i = 0; i < input_count; ++i) {
    size_t count = 1;
    for (size_t d = 0; d < ranks[i]; ++d) count *= (size_t)dims[i][d];
    kiln_hal_buffer_t* buffer = NULL;
    KILN_EXPECT_OK(kiln_hal_allocator_allocate_buffer(
        kiln_hal_device_allocator(kiln_runtime_session_device(session)), NULL,
        count * sizeof(float), &buffer));
    KILN_EXPECT_OK(
        kiln_hal_buffer_map_write(buffer, 0, inputs[i], count * sizeof(float)));
    kiln_hal_buffer_view_t* view = NULL;
    KILN_EXPECT_OK(kiln_hal_buffer_view_create(
        buffer, ranks[i], dims[i], KILN_HAL_ELEMENT_TYPE_FLOAT_32,
        KILN_HAL_ENCODING_TYPE_DENSE_ROW_MAJOR, kiln_allocator_system(),
        &view));
    kiln_hal_buffer_release(buffer);
    args[i] = kiln_vm_value_make_ref(view);
  }
  kiln_vm_value_t out = kiln_vm_value_make_none();
  KILN_EXPECT_OK(
      kiln_runtime_session_call(session, fn, args, input_count, &out, 1));
  if (kiln_ref_isa(out.ref, &kiln_hal_buffer_view_type)) {
    kiln_hal_buffer_view_t* view = (kiln_hal_buffer_view_t*)out.ref;
    KILN_EXPECT_OK(
        kiln_hal_buffer_map_read(kiln_hal_buffer_view_buffer(view),
                                 kiln_hal_buffer_view_byte_offset(view), result,
                                 result_count * sizeof(float)));
  } else {
    KILN_EXPECT_TRUE(false);
  }
  kiln_vm_value_release(&out);
  for (size_t i = 0; i < input_count; ++i) kiln_vm_value_release(&args[i]);
  kiln_runtime_session_release(session);
}

KILN_TEST(session_needs_global_initialize) {
  kiln_compiler_session_t* session = NULL;
  kiln_status_t status =
      kiln_compiler_session_create(kiln_allocator_system(), &session);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_FAILED_PRECONDITION);
  kiln_status_free(status);
  KILN_EXPECT_TRUE(session == NULL);
  KILN_EXPECT_EQ_INT(
      kiln_compiler_api_version(),
      KILN_COMPILER_API_VERSION_MAJOR << 16 | KILN_COMPILER_API_VERSION_MINOR);
}

KILN_TEST(memory_source_to_memory_output_runs) {
  kiln_compiler_session_t* session = begin_session(1, kVmvx);
  KILN_ASSERT_TRUE(session != NULL);
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_EXPECT_OK(compile_bytes(session, "add.mlir", kAdd, &bytes, &length));
  if (bytes) {
    const float lhs[6] = {1, 2, 3, 4, 5, 6};
    const float rhs[6] = {10, 20, 30, 40, 50, 60};
    const kiln_hal_dim_t d[2] = {2, 3};
    const kiln_hal_dim_t* dims[2] = {d, d};
    const size_t ranks[2] = {2, 2};
    const float* inputs[2] = {lhs, rhs};
    float sums[6] = {0};
    run_f32(bytes, length, "add", 2, dims, ranks, inputs, sums, 6);
    for (int i = 0; i < 6; ++i) KILN_EXPECT_NEAR(sums[i], 11.0f * (i + 1), 0);
  }
  free(bytes);
  end_session(session);
}

// Opens |path| as a source and runs the pipeline on it: the invocation, to
// output and destroy with *out_source (NULL on failure, reported).
static kiln_compiler_invocation_t* compile_file(
    kiln_compiler_session_t* session, const char* path,
    kiln_compiler_source_t** out_source) {
  *out_source = NULL;
  kiln_compiler_invocation_t* invocation = NULL;
  KILN_EXPECT_OK(kiln_compiler_source_open_file(session, path, out_source));
  KILN_EXPECT_OK(kiln_compiler_invocation_create(session, &invocation));
  if (!*out_source || !invocation) return invocation;
  KILN_EXPECT_OK(
      kiln_compiler_invocation_parse_source(invocation, *out_source));
  KILN_EXPECT_OK(kiln_compiler_invocation_run_pipeline(invocation));
  return invocation;
}

KILN_TEST(file_output_equals_memory_output) {
  kiln_compiler_session_t* session = begin_session(1, kVmvx);
  KILN_ASSERT_TRUE(session != NULL);
  char dir[] = "/tmp/kiln_compiler_api_test_XXXXXX";
  KILN_ASSERT_TRUE(mkdtemp(dir) != NULL);
  char source_path[128], output_path[128];
  snprintf(source_path, sizeof(source_path), "%s/dot.mlir", dir);
  snprintf(output_path, sizeof(output_path), "%s/dot.kmod", dir);
  FILE* f = fopen(source_path, "wb");
  KILN_ASSERT_TRUE(f != NULL);
  fputs(kDot, f);
  fclose(f);

  // The file source, compiled once to a file and once to memory.
  kiln_compiler_source_t* source = NULL;
  kiln_compiler_invocation_t* invocation =
      compile_file(session, source_path, &source);
  kiln_compiler_output_t* file_output = NULL;
  KILN_EXPECT_OK(kiln_compiler_output_open_file(output_path, &file_output));
  KILN_EXPECT_OK(
      kiln_compiler_invocation_output_module(invocation, file_output));
  KILN_EXPECT_OK(kiln_compiler_output_close(file_output));
  kiln_compiler_output_destroy(file_output);
  kiln_compiler_output_t* memory_output = NULL;
  KILN_EXPECT_OK(kiln_compiler_output_open_memory(kiln_allocator_system(),
                                                  &memory_output));
  KILN_EXPECT_OK(
      kiln_compiler_invocation_output_module(invocation, memory_output));
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);

  const void* memory = NULL;
  size_t memory_length = 0;
  KILN_EXPECT_OK(
      kiln_compiler_output_map_memory(memory_output, &memory, &memory_length));
  size_t file_length = 0;
  uint8_t* file_bytes = read_all(output_path, &file_length);
  KILN_EXPECT_TRUE(memory_length > 0);
  KILN_EXPECT_TRUE(same_bytes(file_bytes, file_length, (const uint8_t*)memory,
                              memory_length));
  // The same text from a memory buffer under the same name: the same bytes.
  uint8_t* buffer_bytes = NULL;
  size_t buffer_length = 0;
  KILN_EXPECT_OK(
      compile_bytes(session, source_path, kDot, &buffer_bytes, &buffer_length));
  KILN_EXPECT_TRUE(same_bytes(buffer_bytes, buffer_length,
                              (const uint8_t*)memory, memory_length));
  // And the module computes the product: [[1,2,3],[4,5,6]] x
  // [[1,0],[0,1],[1,1]] = [[4,5],[10,11]].
  if (file_bytes) {
    const float a[6] = {1, 2, 3, 4, 5, 6};
    const float b[6] = {1, 0, 0, 1, 1, 1};
    const kiln_hal_dim_t da[2] = {2, 3}, db[2] = {3, 2};
    const kiln_hal_dim_t* dims[2] = {da, db};
    const size_t ranks[2] = {2, 2};
    const float* inputs[2] = {a, b};
    float product[4] = {0};
    run_f32(file_bytes, file_length, "dot", 2, dims, ranks, inputs, product, 4);
    KILN_EXPECT_NEAR(product[0], 4.0f, 0);
    KILN_EXPECT_NEAR(product[1], 5.0f, 0);
    KILN_EXPECT_NEAR(product[2], 10.0f, 0);
    KILN_EXPECT_NEAR(product[3], 11.0f, 0);
  }
  free(file_bytes);
  free(buffer_bytes);
  kiln_compiler_output_destroy(memory_output);
  unlink(output_path);
  unlink(source_path);
  rmdir(dir);
  end_session(session);
}

// A source file of 1 MiB or more is mapped, not read: it must compile to
// the bytes the same text gives from memory. The text ends exactly at the
// file's end (no terminator), so a parser reading past it would fault.
KILN_TEST(large_file_source_compiles_like_memory) {
  kiln_compiler_session_t* session = begin_session(1, kVmvx);
  KILN_ASSERT_TRUE(session != NULL);
  char dir[] = "/tmp/kiln_compiler_api_test_XXXXXX";
  KILN_ASSERT_TRUE(mkdtemp(dir) != NULL);
  char source_path[128];
  snprintf(source_path, sizeof(source_path), "%s/big.mlir", dir);
  // 1.5 MiB of comment lines, then the function.
  const size_t comment_lines = 24 * 1024;
  const char line[] = "// padding: a large model's text or weights ........\n";
  const size_t line_length = sizeof(line) - 1;
  const size_t length = comment_lines * line_length + strlen(kDot);
  char* text = malloc(length + 1);
  KILN_ASSERT_TRUE(text != NULL);
  for (size_t i = 0; i < comment_lines; ++i) {
    memcpy(text + i * line_length, line, line_length);
  }
  memcpy(text + comment_lines * line_length, kDot, strlen(kDot) + 1);
  FILE* f = fopen(source_path, "wb");
  KILN_ASSERT_TRUE(f != NULL);
  KILN_EXPECT_TRUE(fwrite(text, 1, length, f) == length);
  fclose(f);

  kiln_compiler_source_t* source = NULL;
  kiln_compiler_invocation_t* invocation =
      compile_file(session, source_path, &source);
  kiln_compiler_output_t* output = NULL;
  KILN_EXPECT_OK(
      kiln_compiler_output_open_memory(kiln_allocator_system(), &output));
  KILN_EXPECT_OK(kiln_compiler_invocation_output_module(invocation, output));
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  const void* memory = NULL;
  size_t memory_length = 0;
  KILN_EXPECT_OK(
      kiln_compiler_output_map_memory(output, &memory, &memory_length));
  uint8_t* buffer_bytes = NULL;
  size_t buffer_length = 0;
  KILN_EXPECT_OK(
      compile_bytes(session, source_path, text, &buffer_bytes, &buffer_length));
  KILN_EXPECT_TRUE(memory_length > 0);
  KILN_EXPECT_TRUE(same_bytes(buffer_bytes, buffer_length,
                              (const uint8_t*)memory, memory_length));
  free(buffer_bytes);
  free(text);
  kiln_compiler_output_destroy(output);
  unlink(source_path);
  rmdir(dir);
  end_session(session);
}

typedef struct collected_diagnostics_t {
  int count;
  kiln_compiler_diagnostic_severity_t severity;
  char file[64];
  uint32_t line;
  uint32_t column;
  char message[256];
} collected_diagnostics_t;

static void collect_diagnostic(void* user_data,
                               const kiln_compiler_diagnostic_t* diagnostic) {
  collected_diagnostics_t* c = (collected_diagnostics_t*)user_data;
  if (c->count++ > 0) return;
  c->severity = diagnostic->severity;
  snprintf(c->file, sizeof(c->file), "%s", diagnostic->file);
  c->line = diagnostic->line;
  c->column = diagnostic->column;
  snprintf(c->message, sizeof(c->message), "%s", diagnostic->message);
}

KILN_TEST(diagnostics_reach_the_callback_with_their_location) {
  kiln_compiler_session_t* session = begin_session(1, kVmvx);
  KILN_ASSERT_TRUE(session != NULL);
  kiln_compiler_source_t* source = NULL;
  KILN_EXPECT_OK(kiln_compiler_source_wrap_buffer(
      session, "bad.mlir", kUndefinedValue, strlen(kUndefinedValue), &source));
  kiln_compiler_invocation_t* invocation = NULL;
  KILN_EXPECT_OK(kiln_compiler_invocation_create(session, &invocation));
  collected_diagnostics_t collected = {0};
  kiln_compiler_invocation_set_diagnostic_callback(
      invocation, collect_diagnostic, &collected);
  // The console form too, into memory.
  char* console = NULL;
  size_t console_size = 0;
  FILE* stream = open_memstream(&console, &console_size);
  KILN_ASSERT_TRUE(stream != NULL);
  kiln_compiler_invocation_set_diagnostic_stream(invocation, stream);
  kiln_status_t status =
      kiln_compiler_invocation_parse_source(invocation, source);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "compilation failed (1 error reported)");
  kiln_status_free(status);
  fclose(stream);
  KILN_EXPECT_EQ_INT(collected.count, 1);
  KILN_EXPECT_EQ_INT(collected.severity, KILN_COMPILER_DIAGNOSTIC_ERROR);
  KILN_EXPECT_STREQ(collected.file, "bad.mlir");
  KILN_EXPECT_EQ_INT(collected.line, 2);
  KILN_EXPECT_EQ_INT(collected.column, 26);
  KILN_EXPECT_CONTAINS(collected.message, "'%b'");
  KILN_EXPECT_CONTAINS(console, "bad.mlir:2:26: error: ");
  free(console);
  // A failed parse leaves nothing to run.
  status = kiln_compiler_invocation_run_pipeline(invocation);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_FAILED_PRECONDITION);
  kiln_status_free(status);
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  end_session(session);
}

static void count_flag(void* user_data, const char* flag) {
  ++*(int*)user_data;
}

KILN_TEST(invalid_flags_are_errors) {
  kiln_compiler_session_t* session = begin_session(0, NULL);
  KILN_ASSERT_TRUE(session != NULL);
  const char* unknown[] = {"--no-such-flag"};
  kiln_status_t status = kiln_compiler_session_set_flags(session, 1, unknown);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "'--no-such-flag'");
  kiln_status_free(status);
  const char* bad_value[] = {"--iree-hal-target-backends=vmvx",
                             "--iree-hal-target-backends=bogus"};
  status = kiln_compiler_session_set_flags(session, 2, bad_value);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "'bogus'");
  kiln_status_free(status);
  const char* conflict[] = {"--compile-to=input", "--output-format=module"};
  status = kiln_compiler_session_set_flags(session, 2, conflict);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "--compile-to prints MLIR");
  kiln_status_free(status);
  // Applied: the first target flag and both of the conflicting pair (the
  // error is their combination); the unknown and bad ones are not kept.
  int count = 0;
  kiln_compiler_session_get_flags(session, count_flag, &count);
  KILN_EXPECT_EQ_INT(count, 3);
  end_session(session);
}

KILN_TEST(compile_to_a_phase_prints_ir) {
  kiln_compiler_session_t* session = begin_session(1, kVmvx);
  KILN_ASSERT_TRUE(session != NULL);
  kiln_compiler_source_t* source = NULL;
  KILN_EXPECT_OK(kiln_compiler_source_wrap_buffer(session, "abs.mlir", kAbs,
                                                  strlen(kAbs), &source));
  kiln_compiler_invocation_t* invocation = NULL;
  KILN_EXPECT_OK(kiln_compiler_invocation_create(session, &invocation));
  kiln_status_t status =
      kiln_compiler_invocation_set_compile_to_phase(invocation, "bogus");
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  kiln_status_free(status);
  KILN_EXPECT_OK(
      kiln_compiler_invocation_set_compile_to_phase(invocation, "structured"));
  KILN_EXPECT_OK(kiln_compiler_invocation_parse_source(invocation, source));
  KILN_EXPECT_OK(kiln_compiler_invocation_run_pipeline(invocation));
  kiln_compiler_output_t* output = NULL;
  KILN_EXPECT_OK(
      kiln_compiler_output_open_memory(kiln_allocator_system(), &output));
  KILN_EXPECT_OK(kiln_compiler_invocation_output_ir(invocation, output));
  const void* text = NULL;
  size_t length = 0;
  KILN_EXPECT_OK(kiln_compiler_output_map_memory(output, &text, &length));
  // Lowered to linalg: the stablehlo op is gone.
  KILN_EXPECT_CONTAINS((const char*)text, "linalg.generic");
  KILN_EXPECT_TRUE(strstr((const char*)text, "stablehlo.abs") == NULL);
  // A module needs the whole pipeline.
  status = kiln_compiler_invocation_output_module(invocation, output);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_FAILED_PRECONDITION);
  kiln_status_free(status);
  kiln_compiler_output_destroy(output);
  kiln_compiler_invocation_destroy(invocation);
  kiln_compiler_source_destroy(source);
  end_session(session);
}

// Writes |invocation|'s output for |source| into a new memory output.
static kiln_compiler_output_t* output_of(kiln_compiler_invocation_t* invocation,
                                         kiln_compiler_source_t* source) {
  kiln_compiler_output_t* output = NULL;
  KILN_EXPECT_OK(
      kiln_compiler_output_open_memory(kiln_allocator_system(), &output));
  KILN_EXPECT_OK(kiln_compiler_invocation_parse_source(invocation, source));
  KILN_EXPECT_OK(kiln_compiler_invocation_run_pipeline(invocation));
  if (output) {
    KILN_EXPECT_OK(kiln_compiler_invocation_output(invocation, output));
  }
  return output;
}

KILN_TEST(invocations_snapshot_the_session_flags) {
  kiln_compiler_session_t* session = begin_session(1, kVmvx);
  KILN_ASSERT_TRUE(session != NULL);
  kiln_compiler_source_t* source = NULL;
  KILN_EXPECT_OK(kiln_compiler_source_wrap_buffer(session, "abs.mlir", kAbs,
                                                  strlen(kAbs), &source));
  kiln_compiler_invocation_t* before = NULL;
  KILN_EXPECT_OK(kiln_compiler_invocation_create(session, &before));
  const char* vm_asm[] = {"--output-format=vm-asm"};
  KILN_EXPECT_OK(kiln_compiler_session_set_flags(session, 1, vm_asm));
  kiln_compiler_invocation_t* after = NULL;
  KILN_EXPECT_OK(kiln_compiler_invocation_create(session, &after));
  // One source parsed by both.
  kiln_compiler_output_t* module = output_of(before, source);
  kiln_compiler_output_t* text = output_of(after, source);
  const void* module_bytes = NULL;
  const void* text_bytes = NULL;
  size_t module_length = 0, text_length = 0;
  KILN_EXPECT_OK(
      kiln_compiler_output_map_memory(module, &module_bytes, &module_length));
  KILN_EXPECT_OK(
      kiln_compiler_output_map_memory(text, &text_bytes, &text_length));
  // The VM assembly text starts with its module header (vm-bytecode.md);
  // the .kmod image does not.
  KILN_EXPECT_TRUE(text_length > 0 &&
                   strncmp((const char*)text_bytes, "module @", 8) == 0);
  KILN_EXPECT_TRUE(module_length > 0 &&
                   strncmp((const char*)module_bytes, "module @", 8) != 0);
  kiln_compiler_output_destroy(module);
  kiln_compiler_output_destroy(text);
  kiln_compiler_invocation_destroy(before);
  kiln_compiler_invocation_destroy(after);
  kiln_compiler_source_destroy(source);
  end_session(session);
}

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

#define THREAD_COUNT 4

typedef struct thread_job_t {
  kiln_compiler_session_t* session;  // shared by all threads
  const char* name;
  const char* text;
  const uint8_t* expected;
  size_t expected_length;
  int rounds;
  int matches;  // rounds whose bytes equal |expected|
  kiln_status_t status;
} thread_job_t;

static void* compile_rounds(void* arg) {
  thread_job_t* job = (thread_job_t*)arg;
  for (int round = 0; round < job->rounds && !job->status; ++round) {
    uint8_t* bytes = NULL;
    size_t length = 0;
    job->status =
        compile_bytes(job->session, job->name, job->text, &bytes, &length);
    if (!job->status &&
        same_bytes(bytes, length, job->expected, job->expected_length)) {
      ++job->matches;
    }
    free(bytes);
  }
  return NULL;
}

// Compiles four different programs one after the other, then on four
// threads at once (|rounds| times each, all from one session): every module
// must be byte-identical to its single-threaded one.
static void expect_threads_match(const char* backend_flag, int rounds) {
  kiln_compiler_session_t* session = begin_session(1, &backend_flag);
  KILN_ASSERT_TRUE(session != NULL);
  const char* names[THREAD_COUNT] = {"add.mlir", "abs.mlir", "dot.mlir",
                                     "sum.mlir"};
  const char* texts[THREAD_COUNT] = {kAdd, kAbs, kDot, kSum};
  uint8_t* expected[THREAD_COUNT] = {0};
  size_t expected_length[THREAD_COUNT] = {0};
  for (int i = 0; i < THREAD_COUNT; ++i) {
    KILN_EXPECT_OK(compile_bytes(session, names[i], texts[i], &expected[i],
                                 &expected_length[i]));
  }
  // The four programs give four different modules.
  for (int i = 1; i < THREAD_COUNT; ++i) {
    KILN_EXPECT_TRUE(!same_bytes(expected[0], expected_length[0], expected[i],
                                 expected_length[i]));
  }
  thread_job_t jobs[THREAD_COUNT];
  pthread_t threads[THREAD_COUNT];
  int started = 0;
  for (int i = 0; i < THREAD_COUNT; ++i) {
    jobs[i] = (thread_job_t){
        session, names[i], texts[i], expected[i], expected_length[i],
        rounds,  0,        NULL};
    if (pthread_create(&threads[i], NULL, compile_rounds, &jobs[i]) != 0) {
      break;
    }
    ++started;
  }
  KILN_EXPECT_EQ_INT(started, THREAD_COUNT);
  for (int i = 0; i < started; ++i) {
    pthread_join(threads[i], NULL);
    KILN_EXPECT_OK(jobs[i].status);
    KILN_EXPECT_EQ_INT(jobs[i].matches, rounds);
  }
  for (int i = 0; i < THREAD_COUNT; ++i) free(expected[i]);
  end_session(session);
}

KILN_TEST(four_threads_give_the_single_threaded_bytes) {
  expect_threads_match("--iree-hal-target-backends=vmvx", 3);
}

// llvm-cpu runs the C compiler per executable in a temporary folder of its
// own: four at once must not meet either.
KILN_TEST(four_threads_on_llvm_cpu_give_the_single_threaded_bytes) {
  expect_threads_match("--iree-hal-target-backends=llvm-cpu", 1);
}

KILN_TEST_MAIN(
    KILN_TEST_CASE(session_needs_global_initialize),
    KILN_TEST_CASE(memory_source_to_memory_output_runs),
    KILN_TEST_CASE(file_output_equals_memory_output),
    KILN_TEST_CASE(large_file_source_compiles_like_memory),
    KILN_TEST_CASE(diagnostics_reach_the_callback_with_their_location),
    KILN_TEST_CASE(invalid_flags_are_errors),
    KILN_TEST_CASE(compile_to_a_phase_prints_ir),
    KILN_TEST_CASE(invocations_snapshot_the_session_flags),
    KILN_TEST_CASE(four_threads_give_the_single_threaded_bytes),
    KILN_TEST_CASE(four_threads_on_llvm_cpu_give_the_single_threaded_bytes))
