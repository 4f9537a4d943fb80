// Robustness: truncated modules, other major versions, and every single-byte
// corruption of a small module must give a clean error or a normal run.
#include <stdlib.h>
#include <string.h>

#include "runtime/base/crc32.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/vm_test_util.h"

static const char* kModule =
    "module @fuzz\n"
    "rodata @data : i32 1 2 3 4\n"
    "global @calls : i32\n"
    "global @cache : ref\n"
    "func @sum : i->i export {\n"
    "  attr \"iree.abi.model\" \"sync\"\n"
    "  const.i32 %i1, 0\n  const.i32 %i2, 1\n  const.i32 %i4, 1\n"
    "^loop:\n  cmp.gt.s.i32 %i3, %i2, %i0\n  br.cond %i3, ^done, ^body\n"
    "^body:\n  add.i32 %i1, %i1, %i2\n  add.i32 %i2, %i2, %i4\n  br ^loop\n"
    "^done:\n  call @load(%i1) -> (%i5)\n"
    "  global.load.i32 %i6, @calls\n  add.i32 %i6, %i6, %i4\n"
    "  global.store.i32 @calls, %i6\n  ret %i5\n}\n"
    "func @load : i->i {\n  global.load.ref %r0, @cache\n"
    "  rodata.ref %r1, @data\n  global.store_if_null.ref %r0, @cache, %r1\n"
    "  const.i64 %l0, 2\n"
    "  buffer.load.i32 %i1, %r0, %l0\n  add.i32 %i1, %i1, %i0\n"
    "  ret %i1\n}\n";

static void assemble(uint8_t** bytes, size_t* length) {
  kiln_status_t status =
      kiln_vm_assemble(kModule, strlen(kModule), "fuzz.vmasm",
                       kiln_allocator_system(), bytes, length);
  KILN_EXPECT_OK(status);
}

// Loads and, if that works, invokes every export with default arguments.
static kiln_status_t load_and_run(const uint8_t* bytes, size_t length,
                                  uint32_t flags) {
  kiln_allocator_t a = kiln_allocator_system();
  kiln_vm_instance_t* instance = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_instance_create(a, &instance));
  kiln_vm_module_t* module = NULL;
  kiln_vm_context_t* context = NULL;
  kiln_status_t status = kiln_vm_bytecode_module_load_memory(
      instance, bytes, length, flags, a, &module);
  if (!status) {
    status = kiln_vm_context_create(instance, &module, 1, a, &context);
  }
  size_t exports = status ? 0
                          : kiln_vm_module_function_count(
                                module, KILN_VM_FUNCTION_LINKAGE_EXPORT);
  for (uint32_t i = 0; !status && i < exports; ++i) {
    kiln_vm_function_t fn;
    status = kiln_vm_module_function_at(module, KILN_VM_FUNCTION_LINKAGE_EXPORT,
                                        i, &fn);
    kiln_vm_signature_t sig;
    if (!status) {
      status = kiln_vm_signature_parse(kiln_vm_function_signature(&fn), &sig);
    }
    if (status) break;
    kiln_vm_value_t args[16], results[16];
    size_t arg_count = sig.args.size < 16 ? sig.args.size : 16;
    size_t result_count = sig.results.size < 16 ? sig.results.size : 16;
    for (size_t k = 0; k < arg_count; ++k) {
      args[k] = kiln_vm_value_make_none();
      args[k].type = kiln_vm_value_type_from_char(sig.args.data[k]);
      args[k].i64 = 10;
      if (args[k].type == KILN_VM_VALUE_TYPE_REF) args[k].ref = NULL;
    }
    kiln_vm_invoke_options_t options = {kiln_vm_now_ns() + 20000000, 64, NULL};
    status = kiln_vm_invoke(context, fn, args, arg_count, results, result_count,
                            &options);
    if (!status) kiln_vm_values_release(results, result_count);
  }
  if (context) kiln_vm_context_release(context);
  kiln_vm_module_release(module);
  kiln_vm_instance_release(instance);
  return status;
}

KILN_TEST(valid_module_runs) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  assemble(&bytes, &length);
  KILN_EXPECT_OK(load_and_run(bytes, length, 0));
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

KILN_TEST(every_truncation_is_a_clean_error) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  assemble(&bytes, &length);
  for (size_t n = 0; n < length; ++n) {
    kiln_status_t status = load_and_run(bytes, n, 0);
    if (!status) KILN_TEST_FAIL_("prefix of %zu bytes loaded", n);
    kiln_status_free(status);
  }
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

KILN_TEST(other_major_version_is_refused) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  assemble(&bytes, &length);
  bytes[8] = 2;  // major version 2
  memset(bytes + KILN_VM_HEADER_CRC_OFFSET, 0, 4);
  uint32_t crc = kiln_crc32(bytes, length);
  memcpy(bytes + KILN_VM_HEADER_CRC_OFFSET, &crc, 4);
  kiln_status_t status = load_and_run(bytes, length, 0);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "version 2.");
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "supports 1.x");
  kiln_status_free(status);
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

KILN_TEST(crc_detects_corruption) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  assemble(&bytes, &length);
  bytes[length - 30] ^= 1;
  kiln_status_t status = load_and_run(bytes, length, 0);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_DATA_LOSS);
  kiln_status_free(status);
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

KILN_TEST(every_byte_flip_is_clean) {
  uint8_t* bytes = NULL;
  size_t length = 0;
  assemble(&bytes, &length);
  uint8_t* copy = (uint8_t*)malloc(length);
  int ran = 0;
  for (size_t i = 0; i < length; ++i) {
    static const uint8_t kMasks[] = {0xff, 0x01, 0x80};
    for (size_t m = 0; m < sizeof(kMasks); ++m) {
      memcpy(copy, bytes, length);
      copy[i] ^= kMasks[m];
      kiln_status_t status =
          load_and_run(copy, length,
                       KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC |
                           KILN_VM_BYTECODE_LOAD_FLAG_BORROW);
      if (!status) ++ran;
      // Any error must carry a message.
      if (status) KILN_EXPECT_TRUE(kiln_status_message(status)[0] != 0);
      kiln_status_free(status);
    }
  }
  KILN_EXPECT_TRUE(ran > 0);  // flips in padding still run
  free(copy);
  kiln_allocator_free(kiln_allocator_system(), bytes);
}

KILN_TEST_MAIN(KILN_TEST_CASE(valid_module_runs),
               KILN_TEST_CASE(every_truncation_is_a_clean_error),
               KILN_TEST_CASE(other_major_version_is_refused),
               KILN_TEST_CASE(crc_detects_corruption),
               KILN_TEST_CASE(every_byte_flip_is_clean))
