// Compiles small programs in-process and loads the module images with the
// VM's bytecode loader (whose verifier checks every function, including the
// nested vmvx executables' entry points when they are loaded).
#define _POSIX_C_SOURCE 200809L  // setenv, strdup
#include <stdlib.h>
#include <string.h>

#include "compiler/driver/driver.h"
#include "runtime/testing/test.h"
#include "runtime/vm/bytecode_module.h"

// abs written directly in the structured form (no input lowering needed).
static const char kAbsLinalg[] =
    "func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %e = tensor.empty() : tensor<4xf32>\n"
    "  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, "
    "affine_map<(d0) -> (d0)>], iterator_types = [\"parallel\"]} "
    "ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {\n"
    "  ^bb0(%a: f32, %b: f32):\n"
    "    %y = math.absf %a : f32\n"
    "    linalg.yield %y : f32\n"
    "  } -> tensor<4xf32>\n"
    "  return %r : tensor<4xf32>\n"
    "}\n";

// |backend| NULL: no target given (the host default).
static kiln_status_t compile_for(const char* backend, const char* text,
                                 kiln_compiler_output_format_t format,
                                 uint8_t** out, size_t* length) {
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  options.output_format = format;
  options.target_backends = backend;
  return kiln_compiler_compile_buffer(&options, "test.mlir", text, strlen(text),
                                      kiln_allocator_system(), out, length);
}

// The vmvx pipeline's output (these tests read its bytecode and assembly).
static kiln_status_t compile(const char* text,
                             kiln_compiler_output_format_t format,
                             uint8_t** out, size_t* length) {
  return compile_for("vmvx", text, format, out, length);
}

#if defined(__x86_64__)
#define KILN_TEST_HOST_NATIVE_FORMAT "native-elf-x86_64"
#elif defined(__aarch64__)
#define KILN_TEST_HOST_NATIVE_FORMAT "native-elf-aarch64"
#endif

// The format of the only executable that |backend| makes for abs.
static void expect_executable_format(const char* backend, const char* format) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(compile_for(backend, kAbsLinalg, KILN_COMPILER_OUTPUT_MODULE,
                             &bytes, &length));
  kiln_vm_instance_t* instance = NULL;
  KILN_ASSERT_OK(kiln_vm_instance_create(kiln_allocator_system(), &instance));
  kiln_vm_module_t* module = NULL;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_load_memory(
      instance, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE,
      kiln_allocator_system(), &module));
  if (module) {
    kiln_vm_executable_info_t info;
    KILN_EXPECT_OK(kiln_vm_bytecode_module_executable_at(module, 0, &info));
    KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(info.format, format));
    kiln_vm_module_release(module);
  }
  kiln_vm_instance_release(instance);
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

// No target: native code when a C compiler is found ($CC, else cc on
// $PATH), else vmvx; an explicit target is kept either way.
KILN_TEST(default_target_follows_the_c_compiler) {
  const char* saved = getenv("CC");
  char* saved_copy = saved ? strdup(saved) : NULL;
  setenv("CC", "cc", 1);
  expect_executable_format(NULL, KILN_TEST_HOST_NATIVE_FORMAT);
  setenv("CC", "/nonexistent/kiln-test-cc", 1);
  expect_executable_format(NULL, "vmvx-bytecode");
  setenv("CC", "kiln-test-no-such-cc", 1);
  expect_executable_format(NULL, "vmvx-bytecode");
  expect_executable_format("vmvx", "vmvx-bytecode");
  if (saved_copy) {
    setenv("CC", saved_copy, 1);
    free(saved_copy);
  } else {
    unsetenv("CC");
  }
}

KILN_TEST(abs_compiles_and_loads) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(
      compile(kAbsLinalg, KILN_COMPILER_OUTPUT_MODULE, &bytes, &length));
  kiln_vm_instance_t* instance = NULL;
  KILN_ASSERT_OK(kiln_vm_instance_create(kiln_allocator_system(), &instance));
  kiln_vm_module_t* module = NULL;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_load_memory(
      instance, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_NONE,
      kiln_allocator_system(), &module));
  if (module) {
    KILN_EXPECT_EQ_INT(kiln_vm_bytecode_module_executable_count(module), 1);
    kiln_vm_executable_info_t info;
    KILN_EXPECT_OK(kiln_vm_bytecode_module_executable_at(module, 0, &info));
    // The nested vmvx module verifies on its own.
    kiln_vm_module_t* inner = NULL;
    KILN_EXPECT_OK(kiln_vm_bytecode_module_load_memory(
        instance, info.data, (size_t)info.data_length,
        KILN_VM_BYTECODE_LOAD_FLAG_NONE, kiln_allocator_system(), &inner));
    if (inner) kiln_vm_module_release(inner);
    kiln_vm_executable_entry_point_t entry;
    KILN_EXPECT_OK(kiln_vm_bytecode_module_executable_entry_point_at(
        module, 0, 0, &entry));
    KILN_EXPECT_TRUE(
        kiln_string_view_equal_cstr(entry.name, "abs_dispatch_0_elementwise"));
    kiln_vm_module_release(module);
  }
  kiln_vm_instance_release(instance);
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

KILN_TEST(vm_asm_output_calls_hal) {
  uint8_t* text = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(
      compile(kAbsLinalg, KILN_COMPILER_OUTPUT_VM_ASM, &text, &length));
  KILN_EXPECT_CONTAINS((const char*)text, "hal.buffer_view.assert");
  KILN_EXPECT_CONTAINS((const char*)text, "hal.command_buffer.dispatch");
  KILN_EXPECT_CONTAINS((const char*)text, "hal.fence.await");
  KILN_EXPECT_CONTAINS((const char*)text, "abs.f32");
  KILN_EXPECT_CONTAINS((const char*)text, "attr \"iree.abi\"");
  kiln_allocator_free(kiln_allocator_system(), text);
}

KILN_TEST(parse_error_is_a_status) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  FILE* sink = tmpfile();
  kiln_compiler_options_t options;
  kiln_compiler_options_initialize(&options);
  options.diagnostic_stream = sink;
  const char* text = "func.func @f( {\n";
  kiln_status_t status =
      kiln_compiler_compile_buffer(&options, "bad.mlir", text, strlen(text),
                                   kiln_allocator_system(), &bytes, &length);
  KILN_EXPECT_FALSE(kiln_status_is_ok(status));
  kiln_status_free(status);
  KILN_EXPECT_TRUE(bytes == NULL);
  if (sink) fclose(sink);
}

KILN_TEST_MAIN(KILN_TEST_CASE(abs_compiles_and_loads),
               KILN_TEST_CASE(default_target_follows_the_c_compiler),
               KILN_TEST_CASE(vm_asm_output_calls_hal),
               KILN_TEST_CASE(parse_error_is_a_status))
