// Verifier tests: modules built with the writer from raw bytecode.
#include <string.h>

#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/bytecode_writer.h"
#include "runtime/vm/vm_test_util.h"

// Builds a module with one import "x.f : i->i", one rodata entry and one
// function "f : i->i" with |regs| and |code|; returns the load status.
static kiln_status_t load_function(const uint16_t regs[5], const uint8_t* code,
                                   size_t length) {
  kiln_allocator_t a = kiln_allocator_system();
  kiln_vm_bytecode_writer_t* w = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_create(a, &w));
  uint8_t* bytes = NULL;
  size_t size = 0;
  kiln_status_t status =
      kiln_vm_bytecode_writer_set_name(w, kiln_make_cstring_view("v"));
  if (!status) {
    status = kiln_vm_bytecode_writer_add_import(
        w, kiln_make_cstring_view("x.f"), kiln_make_cstring_view("i->i"), NULL);
  }
  if (!status) {
    status = kiln_vm_bytecode_writer_add_rodata(w, kiln_make_cstring_view("d"),
                                                "abcd", 4, 64, NULL);
  }
  if (!status) {
    status = kiln_vm_bytecode_writer_add_function(
        w, kiln_make_cstring_view("f"), kiln_make_cstring_view("i->i"), regs,
        code, length, NULL);
  }
  if (!status) status = kiln_vm_bytecode_writer_finish(w, &bytes, &size);
  kiln_vm_bytecode_writer_destroy(w);
  kiln_vm_module_t* module = NULL;
  if (!status) {
    status =
        kiln_vm_bytecode_module_load_memory(NULL, bytes, size, 0, a, &module);
  }
  kiln_vm_module_release(module);
  kiln_allocator_free(a, bytes);
  return status;
}

#define OP(x) (uint8_t)((x)&0xff), (uint8_t)((x) >> 8)
#define U16(x) (uint8_t)((x)&0xff), (uint8_t)((x) >> 8)
#define U32(x) U16((x)&0xffff), U16((uint32_t)(x) >> 16)

static void expect_rejected(const uint16_t regs[5], const uint8_t* code,
                            size_t length, const char* needle) {
  kiln_status_t status = load_function(regs, code, length);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INVALID_ARGUMENT);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), needle);
  kiln_status_free(status);
}

KILN_TEST(accepts_valid_code) {
  uint16_t regs[5] = {2, 0, 0, 0, 0};
  // ret %i0 with a result list of one i32.
  uint8_t code[] = {OP(KILN_VM_OP_RET), 1, KILN_VM_BANK_I32, U16(0)};
  KILN_EXPECT_OK(load_function(regs, code, sizeof(code)));
}

KILN_TEST(rejects_bad_register) {
  uint16_t regs[5] = {2, 0, 0, 0, 0};
  uint8_t code[] = {OP(KILN_VM_OP_ADD_I32), U16(0), U16(0),           U16(2),
                    OP(KILN_VM_OP_RET),     1,      KILN_VM_BANK_I32, U16(0)};
  expect_rejected(regs, code, sizeof(code), "register %i2 out of range");
}

KILN_TEST(rejects_bad_branches) {
  uint16_t regs[5] = {1, 0, 0, 0, 0};
  uint8_t outside[] = {OP(KILN_VM_OP_BR), U32(100)};
  expect_rejected(regs, outside, sizeof(outside), "outside the function");
  uint8_t middle[] = {OP(KILN_VM_OP_BR), U32(7), OP(KILN_VM_OP_RET), 1,
                      KILN_VM_BANK_I32,  U16(0)};
  expect_rejected(regs, middle, sizeof(middle),
                  "not the start of an instruction");
}

KILN_TEST(rejects_bad_calls) {
  uint16_t regs[5] = {2, 1, 0, 0, 0};
  // call f with an i64 argument: signature wants i32.
  uint8_t wrong_bank[] = {OP(KILN_VM_OP_CALL),
                          U32(0),
                          1,
                          KILN_VM_BANK_I64,
                          U16(0),
                          1,
                          KILN_VM_BANK_I32,
                          U16(1),
                          OP(KILN_VM_OP_RET),
                          1,
                          KILN_VM_BANK_I32,
                          U16(0)};
  expect_rejected(regs, wrong_bank, sizeof(wrong_bank),
                  "argument 0 of 'f' must be a i register");
  uint8_t wrong_count[] = {OP(KILN_VM_OP_CALL),
                           U32(0),
                           0,
                           1,
                           KILN_VM_BANK_I32,
                           U16(1),
                           OP(KILN_VM_OP_RET),
                           1,
                           KILN_VM_BANK_I32,
                           U16(0)};
  expect_rejected(regs, wrong_count, sizeof(wrong_count),
                  "argument of 'f': 0 values, signature has 1");
  uint8_t bad_function[] = {OP(KILN_VM_OP_CALL), U32(5), 0, 0};
  expect_rejected(regs, bad_function, sizeof(bad_function),
                  "function index 5 out of range");
  uint8_t bad_import[] = {OP(KILN_VM_OP_CALL_IMPORT), U32(1), 0, 0};
  expect_rejected(regs, bad_import, sizeof(bad_import),
                  "import index 1 out of range");
  uint8_t bad_ret[] = {OP(KILN_VM_OP_RET), 0};
  expect_rejected(regs, bad_ret, sizeof(bad_ret),
                  "returned value of 'f': 0 values");
}

KILN_TEST(rejects_bad_indices_and_fallthrough) {
  uint16_t regs[5] = {1, 0, 0, 0, 1};
  uint8_t bad_rodata[] = {OP(KILN_VM_OP_RODATA_REF), U16(0), U32(1)};
  expect_rejected(regs, bad_rodata, sizeof(bad_rodata),
                  "rodata index 1 out of range");
  uint8_t fall_off[] = {OP(KILN_VM_OP_CONST_I32), U16(0), U32(3)};
  expect_rejected(regs, fall_off, sizeof(fall_off), "falls off the end");
  uint8_t truncated[] = {OP(KILN_VM_OP_CONST_I32), U16(0), 1};
  expect_rejected(regs, truncated, sizeof(truncated), "truncated");
  uint8_t bad_opcode[] = {OP(0xfff0)};
  expect_rejected(regs, bad_opcode, sizeof(bad_opcode), "invalid opcode");
}

KILN_TEST_MAIN(KILN_TEST_CASE(accepts_valid_code),
               KILN_TEST_CASE(rejects_bad_register),
               KILN_TEST_CASE(rejects_bad_branches),
               KILN_TEST_CASE(rejects_bad_calls),
               KILN_TEST_CASE(rejects_bad_indices_and_fallthrough))
