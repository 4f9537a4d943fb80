#include "compiler/codegen/vm/asm_function.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kiln_asm_function_init(kiln_asm_function_t* f, const char* args) {
  memset(f, 0, sizeof(*f));
  for (const char* c = args; *c; ++c) {
    int bank = kiln_vm_bank_of_type_char(*c);
    if (bank >= 0) f->next_reg[bank]++;
  }
}

void kiln_asm_function_deinit(kiln_asm_function_t* f) {
  kiln_ir_sb_free(&f->prologue);
  kiln_ir_sb_free(&f->body);
}

uint32_t kiln_asm_reg(kiln_asm_function_t* f, int bank) {
  return f->next_reg[bank]++;
}

uint32_t kiln_asm_label(kiln_asm_function_t* f) {
  return f->next_label++;
}

void kiln_asm_emit(kiln_asm_function_t* f, const char* format, ...) {
  // Most lines fit |line|; a longer one (a dispatch with many bindings, a
  // queue.execute with a large binding table) is formatted again into a
  // heap buffer of its length: a cut line would no longer assemble.
  char line[1024];
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  int n = vsnprintf(line, sizeof(line), format, args);
  va_end(args);
  if (n < 0) {
    va_end(again);
    return;
  }
  const char* text = line;
  char* big = NULL;
  if ((size_t)n >= sizeof(line)) {
    big = (char*)malloc((size_t)n + 1);
    if (!big) {
      va_end(again);
      f->body.failed = true;
      return;
    }
    vsnprintf(big, (size_t)n + 1, format, again);
    text = big;
  }
  va_end(again);
  kiln_ir_sb_append(&f->body, "  ", 2);
  kiln_ir_sb_append(&f->body, text, (size_t)n);
  kiln_ir_sb_append(&f->body, "\n", 1);
  free(big);
}

void kiln_asm_place_label(kiln_asm_function_t* f, uint32_t label) {
  kiln_ir_sb_printf(&f->body, "^L%u:\n", label);
}

static uint32_t kiln_asm_const(kiln_asm_function_t* f, int bank, uint64_t bits,
                               const char* text) {
  for (size_t i = 0; i < f->num_consts; ++i) {
    if (f->consts[i].bank == bank && f->consts[i].bits == bits) {
      return f->consts[i].reg;
    }
  }
  uint32_t reg = kiln_asm_reg(f, bank);
  static const char* const kMnemonic[] = {"const.i32", "const.i64", "const.f32",
                                          "const.f64"};
  kiln_ir_sb_printf(&f->prologue, "  %s %%%c%u, %s\n", kMnemonic[bank],
                    kiln_vm_bank_prefix(bank), reg, text);
  if (f->num_consts < KILN_ASM_MAX_CONSTS) {
    f->consts[f->num_consts].bank = bank;
    f->consts[f->num_consts].bits = bits;
    f->consts[f->num_consts].reg = reg;
    f->num_consts++;
  }
  return reg;
}

uint32_t kiln_asm_const_i32(kiln_asm_function_t* f, int32_t value) {
  char text[32];
  snprintf(text, sizeof(text), "%d", value);
  return kiln_asm_const(f, KILN_VM_BANK_I32, (uint32_t)value, text);
}

uint32_t kiln_asm_const_i64(kiln_asm_function_t* f, int64_t value) {
  char text[32];
  snprintf(text, sizeof(text), "%" PRId64, value);
  return kiln_asm_const(f, KILN_VM_BANK_I64, (uint64_t)value, text);
}

// Float literals: exact round-trip decimal, or inf/nan spellings.
static void kiln_asm_format_double(double v, int digits, char* text,
                                   size_t size) {
  if (v != v) {
    snprintf(text, size, "nan");
  } else if (v == __builtin_inf()) {
    snprintf(text, size, "inf");
  } else if (v == -__builtin_inf()) {
    snprintf(text, size, "-inf");
  } else {
    snprintf(text, size, "%.*g", digits, v);
  }
}

uint32_t kiln_asm_const_f32(kiln_asm_function_t* f, float value) {
  char text[64];
  kiln_asm_format_double(value, 9, text, sizeof(text));
  uint32_t bits;
  memcpy(&bits, &value, 4);
  return kiln_asm_const(f, KILN_VM_BANK_F32, bits, text);
}

uint32_t kiln_asm_const_f64(kiln_asm_function_t* f, double value) {
  char text[64];
  kiln_asm_format_double(value, 17, text, sizeof(text));
  uint64_t bits;
  memcpy(&bits, &value, 8);
  return kiln_asm_const(f, KILN_VM_BANK_F64, bits, text);
}

void kiln_asm_function_finish(kiln_asm_function_t* f, const char* name,
                              const char* signature, bool exported,
                              const char* attrs,
                              kiln_ir_string_builder_t* out) {
  kiln_ir_sb_printf(out, "func @%s : %s%s {\n", name, signature,
                    exported ? " export" : "");
  if (attrs) kiln_ir_sb_printf(out, "%s", attrs);
  if (f->prologue.size)
    kiln_ir_sb_append(out, f->prologue.data, f->prologue.size);
  if (f->body.size) kiln_ir_sb_append(out, f->body.data, f->body.size);
  kiln_ir_sb_printf(out, "}\n");
}

void kiln_asm_quote(kiln_ir_string_builder_t* out, const char* text,
                    size_t length) {
  kiln_ir_sb_append(out, "\"", 1);
  for (size_t i = 0; i < length; ++i) {
    unsigned char c = (unsigned char)text[i];
    if (c == '"' || c == '\\') {
      char esc[2] = {'\\', (char)c};
      kiln_ir_sb_append(out, esc, 2);
    } else if (c < 0x20 || c >= 0x7f) {
      kiln_ir_sb_printf(out, "\\%02x", c);
    } else {
      kiln_ir_sb_append(out, (const char*)&c, 1);
    }
  }
  kiln_ir_sb_append(out, "\"", 1);
}
