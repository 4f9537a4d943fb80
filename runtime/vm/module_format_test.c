// Writer/loader round trip and the loader's file API.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

KILN_TEST_MAIN(KILN_TEST_CASE(writer_loader_round_trip))
