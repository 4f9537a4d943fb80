// Writer/loader round trip and the loader's file API.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/base/crc32.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/bytecode_writer.h"
#include "runtime/vm/vm_test_util.h"

KILN_TEST(writer_loader_round_trip) {
  kiln_allocator_t a = kiln_allocator_system();
  kiln_vm_bytecode_writer_t* w = NULL;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_create(a, &w));
  KILN_EXPECT_OK(
      kiln_vm_bytecode_writer_set_name(w, kiln_make_cstring_view("rt")));
  uint32_t import = 0, fn = 0, exp = 0, rodata = 0, exe = 0;
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_import(
      w, kiln_make_cstring_view("hal.f"), kiln_make_cstring_view("r...->"),
      &import));
  uint16_t regs[5] = {1, 0, 0, 0, 0};
  uint8_t code[] = {KILN_VM_OP_RET & 0xff, KILN_VM_OP_RET >> 8, 1, 0, 0, 0};
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_function(
      w, kiln_make_cstring_view("id"), kiln_make_cstring_view("i->i"), regs,
      code, sizeof(code), &fn));
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_export(
      w, kiln_make_cstring_view("id"), fn, &exp));
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_export_attr(
      w, exp, kiln_make_cstring_view("iree.abi"),
      kiln_make_cstring_view("{}")));
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_rodata(
      w, kiln_make_cstring_view("w"), "0123456789", 10, 4096, &rodata));
  uint32_t wg[3] = {8, 4, 2};
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_executable(
      w, kiln_make_cstring_view("x"), kiln_make_cstring_view("native-test"),
      "blob", 4, true, &exe));
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_entry_point(
      w, exe, kiln_make_cstring_view("main"), wg, 128,
      kiln_make_cstring_view("a.mlir:1:1")));
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_finish(w, &bytes, &length));
  kiln_vm_bytecode_writer_destroy(w);

  // Through a file: mmapped, rodata used in place.
  char path[] = "/tmp/kiln_vm_module_format_testXXXXXX";
  int fd = mkstemp(path);
  KILN_ASSERT_TRUE(fd >= 0);
  KILN_EXPECT_TRUE(write(fd, bytes, length) == (ssize_t)length);
  close(fd);
  kiln_vm_module_t* module = NULL;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_load_file(NULL, path, 0, a, &module));
  unlink(path);
  KILN_EXPECT_TRUE(
      kiln_string_view_equal_cstr(kiln_vm_module_name(module), "rt"));
  kiln_vm_function_t f;
  KILN_EXPECT_OK(kiln_vm_module_function_at(
      module, KILN_VM_FUNCTION_LINKAGE_IMPORT, 0, &f));
  KILN_EXPECT_TRUE(
      kiln_string_view_equal_cstr(kiln_vm_function_signature(&f), "r...->"));
  KILN_EXPECT_OK(kiln_vm_module_lookup_function_by_name(
      module, kiln_make_cstring_view("id"), &f));
  KILN_EXPECT_EQ_INT(kiln_vm_function_reflection_attr_count(&f), 1);
  kiln_vm_buffer_t* buffer = NULL;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_buffer(module, 0, &buffer));
  size_t image_length = 0;
  const uint8_t* image = kiln_vm_bytecode_module_image(module, &image_length);
  KILN_EXPECT_EQ_INT(image_length, length);
  KILN_EXPECT_TRUE(buffer->data >= image && buffer->data < image + length);
  KILN_EXPECT_EQ_INT((buffer->data - image) % 4096, 0);
  KILN_EXPECT_FALSE(buffer->is_mutable);
  KILN_EXPECT_TRUE(memcmp(buffer->data, "0123456789", 10) == 0);
  kiln_vm_module_release(module);  // the buffer keeps it alive
  KILN_EXPECT_TRUE(memcmp(buffer->data, "0123456789", 10) == 0);
  kiln_ref_release(buffer);

  KILN_ASSERT_OK(kiln_vm_bytecode_module_load_memory(
      NULL, bytes, length, KILN_VM_BYTECODE_LOAD_FLAG_BORROW, a, &module));
  kiln_vm_executable_info_t info;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_executable_at(module, 0, &info));
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(info.format, "native-test"));
  KILN_EXPECT_EQ_INT(info.data_length, 4);
  KILN_EXPECT_TRUE(info.data == bytes + (info.data - bytes));
  KILN_EXPECT_EQ_INT((info.data - bytes) % 64, 0);
  // SHA-256("blob") computed independently (sha256sum).
  KILN_EXPECT_EQ_INT(info.digest[0], 0xfa);
  kiln_vm_executable_entry_point_t ep;
  KILN_EXPECT_OK(
      kiln_vm_bytecode_module_executable_entry_point_at(module, 0, 0, &ep));
  KILN_EXPECT_EQ_INT(ep.workgroup_size[0], 8);
  KILN_EXPECT_EQ_INT(ep.workgroup_size[2], 2);
  KILN_EXPECT_EQ_INT(ep.local_memory_bytes, 128);
  kiln_vm_module_release(module);
  KILN_EXPECT_STATUS(KILN_STATUS_NOT_FOUND,
                     kiln_vm_bytecode_module_load_file(
                         NULL, "/nonexistent/x.kmod", 0, a, &module));
  kiln_allocator_free(a, bytes);
}

// A test lookup: one 16-byte parameter ("s", "k"), 64-byte aligned.
static _Alignas(64) const uint8_t kParam[16] = "fedcba9876543210";
static kiln_status_t kiln_test_lookup(void* user_data, kiln_string_view_t scope,
                                      kiln_string_view_t key,
                                      const uint8_t** out_data,
                                      uint64_t* out_length) {
  uint64_t length = user_data ? *(const uint64_t*)user_data : 16;
  if (!kiln_string_view_equal_cstr(scope, "s") ||
      !kiln_string_view_equal_cstr(key, "k")) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND, "no '%.*s'",
                            KILN_SV_ARG(key));
  }
  *out_data = kParam;
  *out_length = length;
  return kiln_ok_status();
}

// Parameter rodata (format 1.3): written and read back, unbound until
// bound, errors for a missing key or a size mismatch, and the data-length
// check of the loader.
KILN_TEST(parameter_rodata) {
  kiln_allocator_t a = kiln_allocator_system();
  kiln_vm_bytecode_writer_t* w = NULL;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_create(a, &w));
  KILN_EXPECT_OK(
      kiln_vm_bytecode_writer_set_name(w, kiln_make_cstring_view("pm")));
  uint32_t ordinal = 0;
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_rodata_parameter(
      w, kiln_make_cstring_view("p"), kiln_make_cstring_view("s"),
      kiln_make_cstring_view("k"), 16, 64, &ordinal));
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_finish(w, &bytes, &length));
  kiln_vm_bytecode_writer_destroy(w);
  uint16_t minor = 0;
  memcpy(&minor, bytes + 10, 2);
  KILN_EXPECT_EQ_INT(minor, 3);

  kiln_vm_module_t* module = NULL;
  KILN_ASSERT_OK(
      kiln_vm_bytecode_module_load_memory(NULL, bytes, length, 0, a, &module));
  KILN_EXPECT_EQ_INT(kiln_vm_bytecode_module_parameter_count(module), 1);
  kiln_vm_rodata_info_t info;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(module, 0, &info));
  KILN_EXPECT_TRUE(info.is_parameter);
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(info.parameter_scope, "s"));
  KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(info.parameter_key, "k"));
  KILN_EXPECT_EQ_INT(info.length, 16);
  KILN_EXPECT_TRUE(info.data == NULL);
  kiln_vm_buffer_t* buffer = NULL;
  kiln_status_t st = kiln_vm_bytecode_module_rodata_buffer(module, 0, &buffer);
  KILN_EXPECT_EQ_INT(kiln_status_code(st), KILN_STATUS_FAILED_PRECONDITION);
  KILN_EXPECT_CONTAINS(kiln_status_message(st),
                       "needs parameter 's'::'k' (16 bytes)");
  kiln_status_free(st);
  // Wrong size: refused, and the module stays unbound.
  uint64_t wrong = 12;
  st = kiln_vm_bytecode_module_bind_parameters(module, kiln_test_lookup, &wrong,
                                               NULL);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "has 12 bytes");
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "compiled for 16 bytes");
  kiln_status_free(st);
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(module, 0, &info));
  KILN_EXPECT_TRUE(info.data == NULL);
  KILN_ASSERT_OK(kiln_vm_bytecode_module_bind_parameters(
      module, kiln_test_lookup, NULL, NULL));
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_buffer(module, 0, &buffer));
  KILN_EXPECT_TRUE(buffer->data == kParam);
  KILN_EXPECT_FALSE(buffer->is_mutable);
  kiln_ref_release(buffer);
  KILN_EXPECT_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                     kiln_vm_bytecode_module_bind_parameters(
                         module, kiln_test_lookup, NULL, NULL));
  kiln_vm_module_release(module);

  // A parameter entry whose data is not {scope, key, length}: the entry's
  // length field (24-byte entries after the 8-byte table header) says 8.
  kiln_vm_module_t* bad = NULL;
  uint8_t* copy = (uint8_t*)malloc(length);
  memcpy(copy, bytes, length);
  bool patched = false;
  for (size_t i = 0; i + 24 <= length; i += 8) {
    uint32_t word = 0;
    uint64_t len = 0;
    memcpy(&word, copy + i + 4, 4);
    memcpy(&len, copy + i + 16, 8);
    if (word == (64u | KILN_VM_RODATA_FLAG_PARAMETER) && len == 16) {
      len = 8;
      memcpy(copy + i + 16, &len, 8);
      patched = true;
      break;
    }
  }
  KILN_EXPECT_TRUE(patched);
  st = kiln_vm_bytecode_module_load_memory(
      NULL, copy, length, KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC, a, &bad);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "has 8 data bytes; needs 16");
  kiln_status_free(st);
  free(copy);
  kiln_allocator_free(a, bytes);
}

// Offset of the first section of |kind| in the module image, or 0.
static uint64_t kiln_test_section_offset(const uint8_t* bytes, uint32_t kind) {
  uint32_t count = 0;
  uint64_t table = 0;
  memcpy(&count, bytes + 28, 4);
  memcpy(&table, bytes + 32, 8);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t k = 0;
    uint64_t offset = 0;
    memcpy(&k, bytes + table + 24 * (uint64_t)i, 4);
    memcpy(&offset, bytes + table + 24 * (uint64_t)i + 8, 8);
    if (k == kind) return offset;
  }
  return 0;
}

// Loads a copy of |bytes| with byte |at| flipped.
static kiln_status_t kiln_test_load_flipped(const uint8_t* bytes, size_t length,
                                            uint64_t at,
                                            kiln_vm_bytecode_load_flags_t flags,
                                            kiln_vm_module_t** out) {
  uint8_t* copy = (uint8_t*)malloc(length);
  memcpy(copy, bytes, length);
  copy[at] ^= 0x40;
  kiln_status_t st = kiln_vm_bytecode_module_load_memory(
      NULL, copy, length, flags, kiln_allocator_system(), out);
  free(copy);  // load_memory copied it
  return st;
}

// RODATA_CHECKSUMS: the load checks the structure and the splat
// descriptors; a weight is checked at its first use, so a damaged weight
// loads and then fails naming itself, while damage anywhere else (or in the
// checksums) fails the load. The header CRC still covers the whole file,
// for readers that do not know the section.
KILN_TEST(rodata_checked_at_first_use) {
  kiln_allocator_t a = kiln_allocator_system();
  kiln_vm_bytecode_writer_t* w = NULL;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_create(a, &w));
  KILN_EXPECT_OK(
      kiln_vm_bytecode_writer_set_name(w, kiln_make_cstring_view("ck")));
  uint16_t regs[5] = {1, 0, 0, 0, 0};
  uint8_t code[] = {KILN_VM_OP_RET & 0xff, KILN_VM_OP_RET >> 8, 1, 0, 0, 0};
  uint32_t fn = 0, ordinal = 0;
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_function(
      w, kiln_make_cstring_view("id"), kiln_make_cstring_view("i->i"), regs,
      code, sizeof(code), &fn));
  uint8_t weights[1000];
  for (int i = 0; i < 1000; ++i) weights[i] = (uint8_t)(i * 7);
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_rodata(
      w, kiln_make_cstring_view("w0"), "0123456789", 10, 64, &ordinal));
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_rodata(
      w, kiln_make_cstring_view("w1"), weights, sizeof(weights), 4096,
      &ordinal));
  float one = 1.0f;
  KILN_EXPECT_OK(kiln_vm_bytecode_writer_add_rodata_splat(
      w, kiln_make_cstring_view("s"), &one, 4, 4096, 64, &ordinal));
  uint8_t* bytes = NULL;
  size_t length = 0;
  KILN_ASSERT_OK(kiln_vm_bytecode_writer_finish(w, &bytes, &length));
  kiln_vm_bytecode_writer_destroy(w);

  // The whole-file CRC (what a 1.3 reader checks) is still right.
  uint32_t header_crc = 0, zero = 0;
  memcpy(&header_crc, bytes + KILN_VM_HEADER_CRC_OFFSET, 4);
  uint8_t* copy = (uint8_t*)malloc(length);
  memcpy(copy, bytes, length);
  memcpy(copy + KILN_VM_HEADER_CRC_OFFSET, &zero, 4);
  KILN_EXPECT_EQ_INT(kiln_crc32(copy, length), header_crc);
  free(copy);
  uint64_t sums =
      kiln_test_section_offset(bytes, KILN_VM_SECTION_RODATA_CHECKSUMS);
  uint64_t code_at = kiln_test_section_offset(bytes, KILN_VM_SECTION_BYTECODE);
  KILN_ASSERT_TRUE(sums != 0 && code_at != 0);

  kiln_vm_module_t* module = NULL;
  KILN_ASSERT_OK(
      kiln_vm_bytecode_module_load_memory(NULL, bytes, length, 0, a, &module));
  kiln_vm_rodata_info_t w1, s;
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(module, 1, &w1));
  KILN_ASSERT_OK(kiln_vm_bytecode_module_rodata_at(module, 2, &s));
  size_t image_length = 0;
  const uint8_t* image = kiln_vm_bytecode_module_image(module, &image_length);
  uint64_t w1_at = (uint64_t)(w1.data - image);
  uint64_t splat_at = s.file_offset + 8;  // the pattern
  kiln_vm_module_release(module);

  // A damaged weight: the load succeeds; w0 reads, w1 fails every time.
  KILN_ASSERT_OK(
      kiln_test_load_flipped(bytes, length, w1_at + 500, 0, &module));
  kiln_vm_rodata_info_t info;
  KILN_EXPECT_OK(kiln_vm_bytecode_module_rodata_at(module, 0, &info));
  for (int i = 0; i < 2; ++i) {
    kiln_status_t st = kiln_vm_bytecode_module_rodata_at(module, 1, &info);
    KILN_EXPECT_EQ_INT(kiln_status_code(st), KILN_STATUS_DATA_LOSS);
    KILN_EXPECT_CONTAINS(kiln_status_message(st),
                         "module 'ck': rodata 'w1' (1000 bytes at offset");
    KILN_EXPECT_CONTAINS(kiln_status_message(st), "is corrupted");
    kiln_status_free(st);
  }
  kiln_vm_buffer_t* buffer = NULL;
  KILN_EXPECT_STATUS(KILN_STATUS_DATA_LOSS,
                     kiln_vm_bytecode_module_rodata_buffer(module, 1, &buffer));
  kiln_vm_module_release(module);
  // Skipping the checks skips this one too.
  KILN_ASSERT_OK(kiln_test_load_flipped(bytes, length, w1_at + 500,
                                        KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC,
                                        &module));
  KILN_EXPECT_OK(kiln_vm_bytecode_module_rodata_at(module, 1, &info));
  kiln_vm_module_release(module);

  // Damage the load must see: a splat's pattern (named), the bytecode, the
  // checksum section's structure CRC and an entry's CRC.
  kiln_status_t st =
      kiln_test_load_flipped(bytes, length, splat_at, 0, &module);
  KILN_EXPECT_EQ_INT(kiln_status_code(st), KILN_STATUS_DATA_LOSS);
  KILN_EXPECT_CONTAINS(kiln_status_message(st), "rodata 's' (12 bytes");
  kiln_status_free(st);
  const uint64_t damaged[3] = {code_at + 1, sums, sums + 8 + 4};
  for (int i = 0; i < 3; ++i) {
    st = kiln_test_load_flipped(bytes, length, damaged[i], 0, &module);
    KILN_EXPECT_EQ_INT(kiln_status_code(st), KILN_STATUS_DATA_LOSS);
    KILN_EXPECT_CONTAINS(kiln_status_message(st), "CRC32 mismatch");
    kiln_status_free(st);
  }
  kiln_allocator_free(a, bytes);
}

KILN_TEST_MAIN(KILN_TEST_CASE(writer_loader_round_trip),
               KILN_TEST_CASE(parameter_rodata),
               KILN_TEST_CASE(rodata_checked_at_first_use))
