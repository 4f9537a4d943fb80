#include "compiler/codegen/vm/vm_emission.h"

#include <inttypes.h>
#include <string.h>

#include "compiler/codegen/vm/asm_function.h"
#include "compiler/dispatch/dispatch_ops.h"
#include "compiler/dispatch/ptr_map.h"
#include "compiler/ir/builder.h"
#include "compiler/ir/builtin.h"
#include "compiler/schedule/schedule.h"
#include "runtime/io/irpa_writer.h"

//===----------------------------------------------------------------------===//
// Imports
//===----------------------------------------------------------------------===//

typedef enum kiln_import_e {
  KILN_IMPORT_DEVICE_DEFAULT,
  KILN_IMPORT_BUFFER_ALLOCATE,
  KILN_IMPORT_BUFFER_WRAP_RODATA,
  KILN_IMPORT_VIEW_CREATE,
  KILN_IMPORT_VIEW_ASSERT,
  KILN_IMPORT_VIEW_BUFFER,
  KILN_IMPORT_VIEW_BYTE_OFFSET,
  KILN_IMPORT_EXECUTABLE_CREATE,
  KILN_IMPORT_CB_CREATE,
  KILN_IMPORT_CB_DISPATCH,
  KILN_IMPORT_CB_BARRIER,
  KILN_IMPORT_CB_FINALIZE,
  KILN_IMPORT_QUEUE_EXECUTE,
  KILN_IMPORT_FENCE_CREATE,
  KILN_IMPORT_FENCE_AWAIT,
  KILN_IMPORT_BUFFER_LOAD,
  KILN_IMPORT_CB_COPY,
  KILN_IMPORT_CHECK_EXPECT_EQ,
  KILN_IMPORT_CHECK_EXPECT_ALMOST_EQ,
  KILN_IMPORT_CHECK_EXPECT_ALL_TRUE,
  KILN_IMPORT_VIEW_DIM,
  KILN_IMPORT_BUFFER_STORE,
  KILN_IMPORT_COUNT,
} kiln_import_t;

static const struct {
  const char* name;
  const char* signature;
} kImports[KILN_IMPORT_COUNT] = {
    {"hal.device.default", "->r"},
    {"hal.buffer.allocate", "rI->r"},
    {"hal.buffer.wrap_rodata", "rr->r"},
    {"hal.buffer_view.create", "rIIii...->r"},
    {"hal.buffer_view.assert", "rrii...->"},
    {"hal.buffer_view.buffer", "r->r"},
    {"hal.buffer_view.byte_offset", "r->I"},
    {"hal.executable.create", "rr->r"},
    {"hal.command_buffer.create", "rii->r"},
    {"hal.command_buffer.dispatch", "rriiiiii...->"},
    {"hal.command_buffer.barrier", "r->"},
    {"hal.command_buffer.finalize", "r->"},
    {"hal.device.queue.execute", "rrrri...->"},
    {"hal.fence.create", "r->r"},
    {"hal.fence.await", "I...->i"},
    {"hal.buffer.load", "rIi->i"},
    {"hal.command_buffer.copy", "rrIrII->"},
    {"check.expect_eq", "rrr->"},
    {"check.expect_almost_eq", "rrrff->"},
    {"check.expect_all_true", "rr->"},
    {"hal.buffer_view.dim", "ri->I"},
    {"hal.buffer.store", "irIi->"},
};

//===----------------------------------------------------------------------===//
// Module-level state
//===----------------------------------------------------------------------===//

typedef struct kiln_em_parameter_t {
  kiln_string_view_t scope;
  kiln_string_view_t key;  // arena string
  int64_t bytes;
  size_t element_bytes;
  const kiln_ir_attribute_t* data;  // exported constant, or NULL
} kiln_em_parameter_t;

typedef struct kiln_em_module_t {
  kiln_ir_context_t* ctx;
  const kiln_vm_emission_options_t* options;
  bool used_imports[KILN_IMPORT_COUNT];
  kiln_ir_string_builder_t rodata;
  kiln_ir_string_builder_t executables;
  kiln_ir_string_builder_t functions;
  kiln_ir_string_builder_t globals;  // "global @... : ref" lines
  // "import @module.fn : sig" lines of the functions of other modules the
  // program calls (func.func declarations), once each.
  kiln_ir_string_builder_t user_imports;
  kiln_ptr_map_t user_import_names;  // interned callee name -> 1
  kiln_ptr_map_t exe_globals;        // interned executable name -> 1
  uint32_t next_rodata;
  kiln_ptr_map_t constant_rodata;  // attribute -> (ordinal + 1)
  // Dense constants whose bytes the assembler takes in place (`blob N`),
  // in N order; becomes the module's kiln.vm_rodata array.
  const kiln_ir_attribute_t** blobs;
  size_t blob_count, blob_capacity;
  const char* export_path;          // of options->parameter_export, or NULL
  kiln_string_view_t export_scope;  // of options->parameter_export
  // The module's parameters, in rodata order: (scope, key, bytes, element
  // size) and, for exported constants, their dense attribute.
  kiln_em_parameter_t* parameters;
  size_t parameter_count, parameter_capacity;
  size_t exported_count;  // names the next exported key
} kiln_em_module_t;

// Where a tensor lives on the host side of one function.
typedef struct kiln_hstore_t {
  uint32_t buffer;    // ref register (hal.buffer)
  uint32_t offset;    // i64 register
  bool offset_known;  // |const_offset| is exact (else: unknown, e.g. args)
  int64_t const_offset;
  int64_t length;
  // Bytes of |buffer| a binding table slot covers (from offset 0) when the
  // offset is known; arguments bind [offset, offset + length) instead.
  int64_t slot_length;
  // Dynamic shapes: the byte length is in i64 register |length_reg| (then
  // |length| and |slot_length| are unused).
  bool dyn_length;
  uint32_t length_reg;
} kiln_hstore_t;

typedef struct kiln_access_t {
  uint32_t buffer;
  bool known;
  int64_t offset, length;
} kiln_access_t;

#define KILN_EM_MAX_ACCESSES 512
// Binding table slots of one command buffer: queue.execute takes 5 + 3 per
// slot values in one register list (at most 255).
#define KILN_EM_MAX_SLOTS 80

typedef struct kiln_em_function_t {
  kiln_em_module_t* m;
  kiln_asm_function_t* f;
  kiln_ir_op_t* func;
  bool is_async;
  uint32_t device;
  uint32_t wait_fence, signal_fence;  // async args
  bool wait_consumed;
  bool has_cb;
  uint32_t cb;
  // The recording of the open command buffer (instructions run only the
  // first time, then the command buffer is cached in a global) and its
  // binding table: slot i is bound to slots[i] at each execution.
  kiln_ir_string_builder_t rec;
  uint32_t num_segments;
  uint32_t num_slots;
  kiln_hstore_t* slots[KILN_EM_MAX_SLOTS];
  uint32_t null_ref;  // a null ref register of the recording block
  uint32_t transient;
  int64_t transient_size;
  // The open command buffer depends on run-time dims (push constants,
  // workgroup counts, binding lengths): it is recorded at every invocation
  // (one-shot) instead of once per context.
  bool cb_dynamic;
  kiln_ptr_map_t dims;         // dynamically shaped value -> uint32_t[rank]
  kiln_ptr_map_t storage;      // value -> kiln_hstore_t*
  kiln_ptr_map_t executables;  // interned name data -> (reg + 1)
  // Host control flow: i32 registers of scalars read back from device data
  // (value -> reg + 1), one label per block (block -> label + 1), and the
  // constants materialized in the current block (forgotten at the next
  // block: a block does not dominate its successors' siblings).
  kiln_ptr_map_t scalars;
  // Scalar values in VM registers of any bank (function arguments, scalars
  // read back for results): value -> kiln_em_pack(bank, reg).
  kiln_ptr_map_t host_scalars;
  // !util.buffer values that are util.buffer.subspan views: value ->
  // kiln_em_bview_t* (the base buffer, the view's byte offset and length).
  kiln_ptr_map_t buffer_views;
  kiln_ptr_map_t block_labels;
  size_t num_block_consts, block_consts_capacity;
  kiln_ir_value_t** block_consts;
  size_t num_reads, num_writes;
  kiln_access_t reads[KILN_EM_MAX_ACCESSES];
  kiln_access_t writes[KILN_EM_MAX_ACCESSES];
} kiln_em_function_t;

static const char* kiln_import_name(kiln_em_module_t* m, kiln_import_t i) {
  m->used_imports[i] = true;
  return kImports[i].name;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// IREE element type code of an IR element type (0 when unsupported).
static uint32_t kiln_hal_element_type(const kiln_ir_type_t* t) {
  if (kiln_ir_type_is_float(t)) {
    switch (t->flt.kind) {
      case KILN_IR_F16:
        return 0x21000010u;
      case KILN_IR_BF16:
        return 0x22000010u;
      case KILN_IR_F32:
        return 0x21000020u;
      case KILN_IR_F64:
        return 0x21000040u;
      // IREE's numerical types 0x24-0x28 for the f8 kinds; f4E2M1FN (no
      // IREE code) 0x29, 4 bits held in a byte.
      case KILN_IR_F8E5M2:
        return 0x24000008u;
      case KILN_IR_F8E4M3FN:
        return 0x25000008u;
      case KILN_IR_F8E5M2FNUZ:
        return 0x26000008u;
      case KILN_IR_F8E4M3FNUZ:
        return 0x27000008u;
      case KILN_IR_F8E8M0FNU:
        return 0x28000008u;
      case KILN_IR_F4E2M1FN:
        return 0x29000004u;
    }
  }
  if (kiln_ir_type_is_index(t)) return 0x10000040u;
  if (kiln_ir_type_is_integer(t)) {
    if (t->integer.width == 1) return 0x13000008u;
    uint32_t numerical = t->integer.signedness == KILN_IR_SIGNED     ? 0x11u
                         : t->integer.signedness == KILN_IR_UNSIGNED ? 0x12u
                                                                     : 0x10u;
    return (numerical << 24) | t->integer.width;
  }
  if (t->kind == KILN_IR_TYPE_COMPLEX) {
    return (0x23u << 24) | (uint32_t)kiln_ir_type_bit_width(t);
  }
  return 0;
}

static int64_t kiln_tensor_bytes(const kiln_ir_type_t* t) {
  int64_t n = kiln_ir_type_num_elements(t);
  return n < 0
             ? -1
             : n * (int64_t)kiln_ir_type_storage_bytes(kiln_ir_type_element(t));
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_em_error(kiln_em_function_t* e, kiln_ir_op_t* op,
                                   const char* what) {
  return kiln_ir_op_emit_error(op, e->m->ctx, "vm-emission: %s", what);
}

// A string rodata entry (for hal.buffer_view.assert names); returns its
// ordinal.
// VM signature char of a function argument or result: i/I/f/F for scalars
// (i32, i64 and index, f32, f64), 'r' for tensors.
static char kiln_em_abi_char(const kiln_ir_type_t* t) {
  if (kiln_ir_type_is_float(t)) {
    // 16-bit floats have no VM register type: '?' (rejected).
    return t->flt.kind == KILN_IR_F64   ? 'F'
           : t->flt.kind == KILN_IR_F32 ? 'f'
                                        : '?';
  }
  if (kiln_ir_type_is_index(t)) return 'I';
  if (kiln_ir_type_is_integer(t)) return t->integer.width > 32 ? 'I' : 'i';
  return 'r';
}

// Whether |t| is !util.buffer (a VM buffer in a ref register).
static bool kiln_em_is_util_buffer(const kiln_ir_type_t* t) {
  return t && t->kind == KILN_IR_TYPE_OPAQUE &&
         kiln_string_view_equal_cstr(t->opaque.text, "!util.buffer");
}

static void* kiln_em_pack(int bank, uint32_t reg) {
  return (void*)(uintptr_t)(((uintptr_t)reg << 3 | (uintptr_t)bank) + 1);
}

// The register of host scalar |v| (a packed map entry or a constant
// materialized here) in |*bank|/|*reg|; false when |v| is neither.
static bool kiln_em_host_scalar(kiln_em_function_t* e, kiln_ir_value_t* v,
                                int* bank, uint32_t* reg) {
  uintptr_t packed = (uintptr_t)kiln_ptr_map_get(&e->host_scalars, v);
  if (packed) {
    *bank = (int)((packed - 1) & 7);
    *reg = (uint32_t)((packed - 1) >> 3);
    return true;
  }
  const kiln_ir_attribute_t* c = kiln_ir_constant_value(v);
  if (!c) return false;
  char k = kiln_em_abi_char(v->type);
  if ((c->kind == KILN_IR_ATTR_INTEGER || c->kind == KILN_IR_ATTR_BOOL) &&
      (k == 'i' || k == 'I')) {
    *bank = k == 'i' ? KILN_VM_BANK_I32 : KILN_VM_BANK_I64;
    *reg = k == 'i' ? kiln_asm_const_i32(e->f, (int32_t)c->i)
                    : kiln_asm_const_i64(e->f, c->i);
    return true;
  }
  if (c->kind == KILN_IR_ATTR_FLOAT && (k == 'f' || k == 'F')) {
    *bank = k == 'f' ? KILN_VM_BANK_F32 : KILN_VM_BANK_F64;
    *reg = k == 'f' ? kiln_asm_const_f32(e->f, (float)c->f.value)
                    : kiln_asm_const_f64(e->f, c->f.value);
    return true;
  }
  return false;
}

static uint32_t kiln_em_bytes_rodata(kiln_em_module_t* m, const char* data,
                                     size_t size) {
  uint32_t ordinal = m->next_rodata++;
  kiln_ir_sb_printf(&m->rodata, "rodata @__rodata_%u : string ", ordinal);
  kiln_asm_quote(&m->rodata, data, size);
  kiln_ir_sb_printf(&m->rodata, "\n");
  return ordinal;
}

static uint32_t kiln_em_string_rodata(kiln_em_module_t* m, const char* text) {
  return kiln_em_bytes_rodata(m, text, strlen(text));
}

// Writes `rodata @__rodata_N align 64 : parameter "scope" "key" BYTES` and
// records the parameter (|data|: the exported constant, or NULL).
static kiln_status_t kiln_em_parameter_rodata(kiln_em_module_t* m,
                                              const kiln_ir_attribute_t* attr,
                                              kiln_string_view_t scope,
                                              kiln_string_view_t key,
                                              const kiln_ir_type_t* type,
                                              const kiln_ir_attribute_t* data,
                                              uint32_t* out_ordinal) {
  size_t element_bytes = kiln_ir_type_storage_bytes(kiln_ir_type_element(type));
  int64_t bytes = kiln_ir_type_num_elements(type) * (int64_t)element_bytes;
  if (m->parameter_count == m->parameter_capacity) {
    size_t cap = m->parameter_capacity ? 2 * m->parameter_capacity : 16;
    kiln_em_parameter_t* grown =
        (kiln_em_parameter_t*)kiln_ir_arena_alloc(m->ctx, cap * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(m->ctx);
    if (m->parameter_count) {
      memcpy(grown, m->parameters, m->parameter_count * sizeof(*grown));
    }
    m->parameters = grown;
    m->parameter_capacity = cap;
  }
  m->parameters[m->parameter_count++] =
      (kiln_em_parameter_t){scope, key, bytes, element_bytes, data};
  uint32_t ordinal = m->next_rodata++;
  kiln_ir_sb_printf(&m->rodata, "rodata @__rodata_%u align 64 : parameter ",
                    ordinal);
  kiln_asm_quote(&m->rodata, scope.data, scope.size);
  kiln_ir_sb_printf(&m->rodata, " ");
  kiln_asm_quote(&m->rodata, key.data, key.size);
  kiln_ir_sb_printf(&m->rodata, " %lld\n", (long long)bytes);
  kiln_ptr_map_put(&m->constant_rodata, attr, (void*)(uintptr_t)(ordinal + 1));
  *out_ordinal = ordinal;
  return kiln_ok_status();
}

// The rodata entry holding dense constant |attr| (64-byte aligned). A splat
// stays one element and a count (a splat rodata entry, expanded when a
// context is created), so its size in the module does not grow with its
// shape.
static kiln_status_t kiln_em_constant_rodata(kiln_em_module_t* m,
                                             kiln_ir_op_t* at,
                                             const kiln_ir_attribute_t* attr,
                                             uint32_t* out_ordinal) {
  void* existing = kiln_ptr_map_get(&m->constant_rodata, attr);
  if (existing) {
    *out_ordinal = (uint32_t)(uintptr_t)existing - 1;
    return kiln_ok_status();
  }
  kiln_string_view_t scope, key;
  if (kiln_ir_parameter_attr_ref(attr, &scope, &key)) {
    // The bytes live in a parameter file bound at load. Keyed by the
    // attribute (uniqued per scope and key) like dense constants.
    const kiln_ir_type_t* type = at->num_results ? at->results[0].type : NULL;
    if (!type || !kiln_ir_type_is_ranked_tensor(type) ||
        !kiln_ir_type_has_static_shape(type)) {
      return kiln_ir_op_emit_error(at, m->ctx,
                                   "vm-emission: a parameter needs a "
                                   "statically shaped tensor");
    }
    return kiln_em_parameter_rodata(m, attr, scope, key, type, NULL,
                                    out_ordinal);
  }
  if (!attr || attr->kind != KILN_IR_ATTR_DENSE_ELEMENTS) {
    return kiln_ir_op_emit_error(at, m->ctx,
                                 "vm-emission: expected a dense constant");
  }
  int64_t count = kiln_ir_dense_num_elements(attr);
  size_t eb = kiln_ir_type_storage_bytes(kiln_ir_type_element(attr->type));
  if (m->export_path && !attr->dense.splat && count > 0 &&
      count * (int64_t)eb >= m->options->parameter_export_minimum_size) {
    // --iree-parameter-export: the bytes go to the archive, the module
    // keeps a reference.
    char key[32];
    snprintf(key, sizeof(key), "constant_%zu", m->exported_count++);
    kiln_string_view_t interned = kiln_ir_intern_cstr(m->ctx, key);
    if (!interned.data) return kiln_ir_context_take_error(m->ctx);
    return kiln_em_parameter_rodata(m, attr, m->export_scope, interned,
                                    attr->type, attr, out_ordinal);
  }
  uint32_t ordinal = m->next_rodata++;
  if (attr->dense.splat && count > 1 && eb > 0 && eb <= 64) {
    kiln_ir_sb_printf(&m->rodata,
                      "rodata @__rodata_%u align 64 : splat %lld x hex \"",
                      ordinal, (long long)count);
    for (size_t b = 0; b < eb; ++b) {
      kiln_ir_sb_printf(&m->rodata, "%02x", attr->dense.data[b]);
    }
    kiln_ir_sb_printf(&m->rodata, "\"\n");
    kiln_ptr_map_put(&m->constant_rodata, attr,
                     (void*)(uintptr_t)(ordinal + 1));
    *out_ordinal = ordinal;
    return kiln_ok_status();
  }
  if (!attr->dense.splat && count > 0) {
    // The bytes stay in the attribute: the assembler copies them from there
    // (kiln_vm_emission_blobs) instead of from hex text, which took most of
    // a large model's compile time (two hex digits per byte, written, copied
    // and parsed back).
    if (m->blob_count == m->blob_capacity) {
      size_t cap = m->blob_capacity ? 2 * m->blob_capacity : 64;
      const kiln_ir_attribute_t** grown =
          (const kiln_ir_attribute_t**)kiln_ir_arena_alloc(
              m->ctx, cap * sizeof(*grown));
      if (!grown) return kiln_ir_context_take_error(m->ctx);
      if (m->blob_count) {
        memcpy(grown, m->blobs, m->blob_count * sizeof(*grown));
      }
      m->blobs = grown;
      m->blob_capacity = cap;
    }
    kiln_ir_sb_printf(&m->rodata, "rodata @__rodata_%u align 64 : blob %zu\n",
                      ordinal, m->blob_count);
    m->blobs[m->blob_count++] = attr;
    kiln_ptr_map_put(&m->constant_rodata, attr,
                     (void*)(uintptr_t)(ordinal + 1));
    *out_ordinal = ordinal;
    return kiln_ok_status();
  }
  // Empty, or a splat too wide for a splat entry (or of one element): the
  // elements as hex.
  kiln_ir_sb_printf(&m->rodata, "rodata @__rodata_%u align 64 : hex \"",
                    ordinal);
  static const char kDigits[] = "0123456789abcdef";
  for (int64_t i = 0; i < count; ++i) {
    for (size_t b = 0; b < eb; ++b) {
      uint8_t byte = attr->dense.data[b];
      char digits[2] = {kDigits[byte >> 4], kDigits[byte & 15]};
      kiln_ir_sb_append(&m->rodata, digits, 2);
    }
  }
  if (count == 0) {
    // An empty entry still needs a byte.
    kiln_ir_sb_printf(&m->rodata, "00");
  }
  kiln_ir_sb_printf(&m->rodata, "\"\n");
  kiln_ptr_map_put(&m->constant_rodata, attr, (void*)(uintptr_t)(ordinal + 1));
  *out_ordinal = ordinal;
  return kiln_ok_status();
}

static kiln_hstore_t* kiln_em_new_store(kiln_em_function_t* e) {
  return (kiln_hstore_t*)kiln_ir_arena_alloc(e->m->ctx, sizeof(kiln_hstore_t));
}

// The byte length of |s| as an i64 register.
static uint32_t kiln_em_length_reg(kiln_em_function_t* e,
                                   const kiln_hstore_t* s) {
  return s->dyn_length ? s->length_reg : kiln_asm_const_i64(e->f, s->length);
}

static kiln_status_t kiln_em_scalar_i64(kiln_em_function_t* e,
                                        kiln_ir_op_t* user, kiln_ir_value_t* v,
                                        uint32_t* out);

// Dim |j| of tensor |v| as an i64 register: a constant when static, else
// the register computed where |v| got its shape (an argument's view, a
// dynamic constant's value, an alias's operand).
static kiln_status_t kiln_em_dim(kiln_em_function_t* e, kiln_ir_op_t* user,
                                 kiln_ir_value_t* v, size_t j, uint32_t* out) {
  for (;;) {
    const kiln_ir_type_t* t = v->type;
    if (!kiln_ir_type_is_ranked_tensor(t) || j >= t->shaped.rank) break;
    if (t->shaped.dims[j] != KILN_IR_DYNAMIC_DIM) {
      *out = kiln_asm_const_i64(e->f, t->shaped.dims[j]);
      return kiln_ok_status();
    }
    uint32_t* regs = (uint32_t*)kiln_ptr_map_get(&e->dims, v);
    if (regs) {
      *out = regs[j];
      return kiln_ok_status();
    }
    kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
    if (def && kiln_ir_op_is(def, "flow.tensor.dynamic_constant")) {
      // Known to the host only: the compiler folds nothing on it.
      const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(def, "value");
      *out = kiln_asm_const_i64(e->f, value->type->shaped.dims[j]);
      return kiln_ok_status();
    }
    // Reshapes: a collapsed dim is the product of its group's dims; an
    // expanded dynamic dim is its group's source dim divided by the static
    // dims beside it (one dynamic dim per group).
    bool collapse = def && kiln_ir_op_is(def, "tensor.collapse_shape");
    if (collapse || (def && kiln_ir_op_is(def, "tensor.expand_shape"))) {
      const kiln_ir_attribute_t* re = kiln_ir_op_get_attr(def, "reassociation");
      kiln_ir_value_t* src = kiln_ir_op_operand(def, 0);
      if (!re || re->kind != KILN_IR_ATTR_ARRAY) break;
      size_t first = 0, group = 0;
      for (; group < re->array.count; ++group) {
        size_t size = re->array.elements[group]->kind == KILN_IR_ATTR_ARRAY
                          ? re->array.elements[group]->array.count
                          : 0;
        if (collapse ? group == j : (j >= first && j < first + size)) break;
        first += size;
      }
      if (group == re->array.count) break;
      size_t size = re->array.elements[group]->array.count;
      if (!collapse && kiln_ir_op_num_regular_operands(def) > 1) {
        // Run-time output sizes (output_shape [%a, %b]): the k-th dynamic
        // dim is operand 1 + k.
        uint32_t k = 1;
        for (size_t i = 0; i < j; ++i) {
          k += t->shaped.dims[i] == KILN_IR_DYNAMIC_DIM;
        }
        if (k >= kiln_ir_op_num_regular_operands(def)) break;
        return kiln_em_scalar_i64(e, user, kiln_ir_op_operand(def, k), out);
      }
      if (collapse) {
        uint32_t n = kiln_asm_const_i64(e->f, 1);
        for (size_t k = first; k < first + size; ++k) {
          uint32_t d = 0;
          KILN_RETURN_IF_ERROR(kiln_em_dim(e, user, src, k, &d));
          uint32_t r = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
          kiln_asm_emit(e->f, "mul.i64 %%l%u, %%l%u, %%l%u", r, n, d);
          n = r;
        }
        *out = n;
        return kiln_ok_status();
      }
      int64_t rest = 1;
      for (size_t k = first; k < first + size; ++k) {
        if (k == j) continue;
        if (t->shaped.dims[k] == KILN_IR_DYNAMIC_DIM) rest = 0;
        rest *=
            t->shaped.dims[k] == KILN_IR_DYNAMIC_DIM ? 1 : t->shaped.dims[k];
      }
      if (rest <= 0) break;
      uint32_t d = 0;
      KILN_RETURN_IF_ERROR(kiln_em_dim(e, user, src, group, &d));
      *out = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
      kiln_asm_emit(e->f, "div.s.i64 %%l%u, %%l%u, %%l%u", *out, d,
                    kiln_asm_const_i64(e->f, rest));
      return kiln_ok_status();
    }
    // Shape-preserving aliases (cast, optimization_barrier), and a complex
    // tensor's view as (real, imag) pairs or back: dims before the pairs'
    // last (static 2) are the same.
    if (def && (kiln_ir_op_is(def, "tensor.cast") ||
                kiln_ir_op_is(def, "kiln.complex_view") ||
                kiln_ir_op_is(def, "util.optimization_barrier"))) {
      v = kiln_ir_op_operand(def,
                             kiln_ir_op_is(def, "util.optimization_barrier")
                                 ? (uint32_t)v->index
                                 : 0);
      continue;
    }
    break;
  }
  return kiln_em_error(e, user,
                       "the run-time size of a dynamic dim is unknown here "
                       "(dynamic shapes are supported for function arguments, "
                       "flow.tensor.dynamic_constant, dispatch results, "
                       "reshapes and casts)");
}

// Byte length of tensor |v| with dynamic dims as an i64 register.
static kiln_status_t kiln_em_dynamic_bytes(kiln_em_function_t* e,
                                           kiln_ir_op_t* user,
                                           kiln_ir_value_t* v, uint32_t* out) {
  const kiln_ir_type_t* t = v->type;
  uint32_t n = kiln_asm_const_i64(
      e->f, (int64_t)kiln_ir_type_storage_bytes(kiln_ir_type_element(t)));
  for (size_t j = 0; j < t->shaped.rank; ++j) {
    uint32_t d = 0;
    KILN_RETURN_IF_ERROR(kiln_em_dim(e, user, v, j, &d));
    uint32_t r = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    kiln_asm_emit(e->f, "mul.i64 %%l%u, %%l%u, %%l%u", r, n, d);
    n = r;
  }
  *out = n;
  return kiln_ok_status();
}

// Host scalar |v| (an index or integer) as an i64 register.
static kiln_status_t kiln_em_scalar_i64(kiln_em_function_t* e,
                                        kiln_ir_op_t* user, kiln_ir_value_t* v,
                                        uint32_t* out) {
  int bank = 0;
  uint32_t reg = 0;
  if (!kiln_em_host_scalar(e, v, &bank, &reg) ||
      (bank != KILN_VM_BANK_I64 && bank != KILN_VM_BANK_I32)) {
    return kiln_em_error(e, user,
                         "an index or integer operand that is not computed "
                         "at host level");
  }
  if (bank == KILN_VM_BANK_I64) {
    *out = reg;
    return kiln_ok_status();
  }
  *out = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  kiln_asm_emit(e->f, "ext.i32.i64.s %%l%u, %%i%u", *out, reg);
  return kiln_ok_status();
}

// The i64 register of a run-time size a dispatch names by (operand, dim):
// dim |dim| of tensor operand |operand|, the scalar operand itself when
// |dim| is -1, or the constant |dim| when |operand| is -1.
static kiln_status_t kiln_em_size_source(kiln_em_function_t* e,
                                         kiln_ir_op_t* op, int64_t operand,
                                         int64_t dim, uint32_t* out) {
  if (operand < 0) {
    *out = kiln_asm_const_i64(e->f, dim);
    return kiln_ok_status();
  }
  if (operand >= (int64_t)kiln_ir_op_num_regular_operands(op)) {
    return kiln_em_error(e, op, "malformed run-time size source");
  }
  kiln_ir_value_t* v = kiln_ir_op_operand(op, (uint32_t)operand);
  if (dim < 0) return kiln_em_scalar_i64(e, op, v, out);
  return kiln_em_dim(e, op, v, (size_t)dim, out);
}

static kiln_status_t kiln_em_check_sizes(kiln_em_function_t* e,
                                         kiln_ir_op_t* op,
                                         const kiln_ir_type_t* t,
                                         const uint32_t* regs,
                                         uint32_t* out_bytes);

// Storage materialized at its first use (a constant, a tensor.empty) is
// only valid in the host block of that use: forgotten on entering the next.
static kiln_status_t kiln_em_block_local(kiln_em_function_t* e,
                                         kiln_ir_value_t* v) {
  if (e->num_block_consts == e->block_consts_capacity) {
    size_t cap = e->block_consts_capacity ? 2 * e->block_consts_capacity : 32;
    kiln_ir_value_t** grown =
        (kiln_ir_value_t**)kiln_ir_arena_alloc(e->m->ctx, cap * sizeof(*grown));
    if (!grown) return kiln_ir_context_take_error(e->m->ctx);
    if (e->num_block_consts) {
      memcpy(grown, e->block_consts, e->num_block_consts * sizeof(*grown));
    }
    e->block_consts = grown;
    e->block_consts_capacity = cap;
  }
  e->block_consts[e->num_block_consts++] = v;
  return kiln_ok_status();
}

// A fresh device buffer of at least one byte (an empty tensor still binds
// one) for |length| bytes (an i64 register); returns its register.
static uint32_t kiln_em_allocate(kiln_em_function_t* e, uint32_t length) {
  uint32_t alloc = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  kiln_asm_emit(e->f, "max.s.i64 %%l%u, %%l%u, %%l%u", alloc, length,
                kiln_asm_const_i64(e->f, 1));
  uint32_t buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%l%u) -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_BUFFER_ALLOCATE), e->device,
                alloc, buffer);
  return buffer;
}

// A store of its own (a fresh buffer, at least one byte) for a value of
// static tensor type |t|; NULL when out of memory.
static kiln_hstore_t* kiln_em_alloc_static(kiln_em_function_t* e,
                                           const kiln_ir_type_t* t) {
  kiln_hstore_t* s = kiln_em_new_store(e);
  if (!s) return NULL;
  s->length = kiln_tensor_bytes(t);
  s->slot_length = s->length > 0 ? s->length : 1;
  s->buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%l%u) -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_BUFFER_ALLOCATE), e->device,
                kiln_asm_const_i64(e->f, s->slot_length), s->buffer);
  s->offset = kiln_asm_const_i64(e->f, 0);
  s->offset_known = true;
  s->const_offset = 0;
  return s;
}

// Gives |s| a fresh buffer for dynamically shaped value |v| of |op| whose
// dims are in |regs|: the sizes are checked (kiln_em_check_sizes), recorded
// for |v|, and at least one byte is allocated (an empty tensor still binds
// one).
static kiln_status_t kiln_em_alloc_dynamic(kiln_em_function_t* e,
                                           kiln_ir_op_t* op, kiln_ir_value_t* v,
                                           uint32_t* regs, kiln_hstore_t* s) {
  KILN_RETURN_IF_ERROR(
      kiln_em_check_sizes(e, op, v->type, regs, &s->length_reg));
  kiln_ptr_map_put(&e->dims, v, regs);
  s->dyn_length = true;
  s->buffer = kiln_em_allocate(e, s->length_reg);
  s->offset = kiln_asm_const_i64(e->f, 0);
  s->offset_known = true;
  s->const_offset = 0;
  kiln_ptr_map_put(&e->storage, v, s);
  return kiln_ok_status();
}

// A tensor.empty used at host level (returned, or passed to another
// module's function to write): a fresh buffer of its size, sized at run
// time from its size operands when dynamic. Its contents are undefined.
static kiln_status_t kiln_em_empty_storage(kiln_em_function_t* e,
                                           kiln_ir_op_t* user,
                                           kiln_ir_value_t* v,
                                           kiln_hstore_t** out) {
  kiln_ir_op_t* def = v->defining_op;
  const kiln_ir_type_t* t = v->type;
  kiln_hstore_t* s = NULL;
  if (kiln_ir_type_has_static_shape(t)) {
    s = kiln_em_alloc_static(e, t);
    if (!s) return kiln_ir_context_take_error(e->m->ctx);
    kiln_ptr_map_put(&e->storage, v, s);
  } else {
    s = kiln_em_new_store(e);
    if (!s) return kiln_ir_context_take_error(e->m->ctx);
    uint32_t* regs = (uint32_t*)kiln_ir_arena_alloc(
        e->m->ctx, sizeof(uint32_t) * (t->shaped.rank + 1));
    if (!regs) return kiln_ir_context_take_error(e->m->ctx);
    uint32_t k = 0;
    for (size_t d = 0; d < t->shaped.rank; ++d) {
      if (t->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
        regs[d] = kiln_asm_const_i64(e->f, t->shaped.dims[d]);
      } else if (k < def->num_operands) {
        KILN_RETURN_IF_ERROR(kiln_em_scalar_i64(
            e, user, kiln_ir_op_operand(def, k++), &regs[d]));
      } else {
        return kiln_em_error(e, user, "malformed tensor.empty");
      }
    }
    KILN_RETURN_IF_ERROR(kiln_em_alloc_dynamic(e, def, v, regs, s));
  }
  KILN_RETURN_IF_ERROR(kiln_em_block_local(e, v));
  *out = s;
  return kiln_ok_status();
}

// Storage of tensor |v| (constants are materialized on first use).
static kiln_status_t kiln_em_storage(kiln_em_function_t* e, kiln_ir_op_t* user,
                                     kiln_ir_value_t* v, kiln_hstore_t** out) {
  kiln_hstore_t* s = (kiln_hstore_t*)kiln_ptr_map_get(&e->storage, v);
  if (s) {
    *out = s;
    return kiln_ok_status();
  }
  kiln_ir_op_t* def = v->kind == KILN_IR_VALUE_RESULT ? v->defining_op : NULL;
  if (def && (kiln_ir_op_has_trait(def, KILN_IR_TRAIT_CONSTANT_LIKE) ||
              kiln_ir_op_is(def, "arith.constant") ||
              kiln_ir_op_is(def, "flow.tensor.dynamic_constant"))) {
    uint32_t ordinal = 0;
    KILN_RETURN_IF_ERROR(kiln_em_constant_rodata(
        e->m, def, kiln_ir_op_get_attr(def, "value"), &ordinal));
    s = kiln_em_new_store(e);
    if (!s) return kiln_ir_context_take_error(e->m->ctx);
    uint32_t ro = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
    s->buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
    kiln_asm_emit(e->f, "rodata.ref %%r%u, @__rodata_%u", ro, ordinal);
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%r%u) -> (%%r%u)",
                  kiln_import_name(e->m, KILN_IMPORT_BUFFER_WRAP_RODATA),
                  e->device, ro, s->buffer);
    s->offset = kiln_asm_const_i64(e->f, 0);
    s->offset_known = true;
    s->const_offset = 0;
    s->length = kiln_tensor_bytes(v->type);
    if (kiln_ir_op_is(def, "flow.tensor.dynamic_constant")) {
      s->length = kiln_tensor_bytes(kiln_ir_op_get_attr(def, "value")->type);
    }
    s->slot_length = s->length;
    kiln_ptr_map_put(&e->storage, v, s);
    KILN_RETURN_IF_ERROR(kiln_em_block_local(e, v));
    *out = s;
    return kiln_ok_status();
  }
  if (def && kiln_ir_op_is(def, "tensor.empty")) {
    return kiln_em_empty_storage(e, user, v, out);
  }
  return kiln_em_error(e, user, "operand has no buffer (unsupported producer)");
}

// A buffer view over |length| bytes of static tensor type |t| at |s|.
static kiln_status_t kiln_em_view_of_store(kiln_em_function_t* e,
                                           kiln_ir_op_t* user,
                                           const kiln_hstore_t* s,
                                           const kiln_ir_type_t* t,
                                           uint32_t* out_view) {
  uint32_t et = kiln_hal_element_type(kiln_ir_type_element(t));
  if (!et) return kiln_em_error(e, user, "unsupported element type");
  kiln_ir_string_builder_t args = {0};
  kiln_ir_sb_printf(&args, "%%r%u, %%l%u, %%l%u, %%i%u, %%i%u", s->buffer,
                    s->offset, kiln_asm_const_i64(e->f, s->length),
                    kiln_asm_const_i32(e->f, (int32_t)et),
                    kiln_asm_const_i32(e->f, 1));
  for (size_t d = 0; d < t->shaped.rank; ++d) {
    kiln_ir_sb_printf(&args, ", %%l%u",
                      kiln_asm_const_i64(e->f, t->shaped.dims[d]));
  }
  *out_view = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "call.import @%s(%.*s) -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_VIEW_CREATE), (int)args.size,
                args.data ? args.data : "", *out_view);
  kiln_ir_sb_free(&args);
  return kiln_ok_status();
}

// A buffer view over |v| (for results and check ops).
static kiln_status_t kiln_em_view(kiln_em_function_t* e, kiln_ir_op_t* user,
                                  kiln_ir_value_t* v, uint32_t* out_view) {
  kiln_hstore_t* s = NULL;
  KILN_RETURN_IF_ERROR(kiln_em_storage(e, user, v, &s));
  const kiln_ir_type_t* t = v->type;
  uint32_t et = kiln_hal_element_type(kiln_ir_type_element(t));
  if (!et) return kiln_em_error(e, user, "unsupported element type");
  char args[1024];
  uint32_t length = 0;
  if (!kiln_ir_type_has_static_shape(t)) {
    KILN_RETURN_IF_ERROR(kiln_em_dynamic_bytes(e, user, v, &length));
  } else {
    // A static view of dynamic storage (a cast) covers its own bytes.
    length = kiln_asm_const_i64(
        e->f, s->dyn_length ? kiln_tensor_bytes(t) : s->length);
  }
  int n = snprintf(args, sizeof(args), "%%r%u, %%l%u, %%l%u, %%i%u, %%i%u",
                   s->buffer, s->offset, length,
                   kiln_asm_const_i32(e->f, (int32_t)et),
                   kiln_asm_const_i32(e->f, 1));
  for (size_t d = 0; d < t->shaped.rank && n < (int)sizeof(args) - 32; ++d) {
    uint32_t dim = 0;
    KILN_RETURN_IF_ERROR(kiln_em_dim(e, user, v, d, &dim));
    n += snprintf(args + n, sizeof(args) - (size_t)n, ", %%l%u", dim);
  }
  *out_view = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "call.import @%s(%s) -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_VIEW_CREATE), args,
                *out_view);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Command buffers, hazards, submission
//===----------------------------------------------------------------------===//

// Emission into the recording block: kiln_asm_emit writes to f->body, so
// swap the recording text in while emitting it.
static void kiln_em_rec_swap(kiln_em_function_t* e) {
  kiln_ir_string_builder_t t = e->f->body;
  e->f->body = e->rec;
  e->rec = t;
}

// Opens a command buffer (a "call site"): its commands are recorded into
// e->rec, emitted at submission inside a block that runs only while the
// command buffer's global is still null.
static void kiln_em_open_cb(kiln_em_function_t* e) {
  if (e->has_cb) return;
  e->cb = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  e->has_cb = true;
  e->num_reads = e->num_writes = 0;
  e->num_slots = 0;
  // Executable registers are set inside one recording block only.
  e->executables = kiln_ptr_map_make(e->m->ctx);
  e->null_ref = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_em_rec_swap(e);
  kiln_asm_emit(e->f, "const.ref.null %%r%u", e->null_ref);
  kiln_em_rec_swap(e);
}

// The binding table slot of |s| in the open command buffer (added on first
// use).
static uint32_t kiln_em_slot(kiln_em_function_t* e, kiln_hstore_t* s) {
  for (uint32_t i = 0; i < e->num_slots; ++i) {
    if (e->slots[i]->buffer == s->buffer &&
        (e->slots[i]->offset_known || e->slots[i]->offset == s->offset)) {
      return i;
    }
  }
  e->slots[e->num_slots] = s;
  return e->num_slots++;
}

static bool kiln_access_overlaps(const kiln_access_t* a,
                                 const kiln_access_t* b) {
  if (a->buffer != b->buffer) return false;
  if (!a->known || !b->known) return true;
  return a->offset < b->offset + b->length && b->offset < a->offset + a->length;
}

static kiln_access_t kiln_access_of(const kiln_hstore_t* s) {
  kiln_access_t a = {s->buffer, s->offset_known && !s->dyn_length,
                     s->const_offset, s->length};
  return a;
}

// Submits the open command buffer. |final_signal|: signal the caller's
// fence without waiting (async return); otherwise wait for completion.
//
// The command buffer is reusable (mode 2) and recorded ONCE per context:
// its global is loaded, and only while it is null do the recorded
// instructions run (create, dispatches with binding-table slots, barriers,
// finalize), the result being published with global.store_if_null.ref so
// that racing first invocations agree on one command buffer. Each
// invocation then executes it with its own binding table (its arguments,
// transient and result buffers), so concurrent invocations share the
// command buffer but never each other's memory.
static void kiln_em_submit(kiln_em_function_t* e, bool final_signal) {
  if (!e->has_cb && !final_signal) return;
  kiln_em_open_cb(e);
  kiln_em_module_t* m = e->m;
  kiln_string_view_t fname = kiln_ir_symbol_name(e->func);
  uint32_t segment = e->num_segments++;
  if (e->cb_dynamic) {
    // Recorded at every invocation: its dispatches depend on run-time dims.
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%i%u, %%i%u) -> (%%r%u)",
                  kiln_import_name(m, KILN_IMPORT_CB_CREATE), e->device,
                  kiln_asm_const_i32(e->f, 1),
                  kiln_asm_const_i32(e->f, (int32_t)e->num_slots), e->cb);
    if (e->rec.data) kiln_ir_sb_append(&e->f->body, e->rec.data, e->rec.size);
    if (e->rec.failed) e->f->body.failed = true;
    kiln_ir_sb_free(&e->rec);
    memset(&e->rec, 0, sizeof(e->rec));
    kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> ()",
                  kiln_import_name(m, KILN_IMPORT_CB_FINALIZE), e->cb);
  } else {
    kiln_ir_sb_printf(&m->globals, "global @__%.*s_cb%u : ref\n",
                      (int)fname.size, fname.data, segment);
    uint32_t is_null = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
    uint32_t record = kiln_asm_label(e->f), ready = kiln_asm_label(e->f);
    kiln_asm_emit(e->f, "global.load.ref %%r%u, @__%.*s_cb%u", e->cb,
                  (int)fname.size, fname.data, segment);
    kiln_asm_emit(e->f, "ref.is_null %%i%u, %%r%u", is_null, e->cb);
    kiln_asm_emit(e->f, "br.cond %%i%u, ^L%u, ^L%u", is_null, record, ready);
    kiln_asm_place_label(e->f, record);
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%i%u, %%i%u) -> (%%r%u)",
                  kiln_import_name(m, KILN_IMPORT_CB_CREATE), e->device,
                  kiln_asm_const_i32(e->f, 2),
                  kiln_asm_const_i32(e->f, (int32_t)e->num_slots), e->cb);
    if (e->rec.data) kiln_ir_sb_append(&e->f->body, e->rec.data, e->rec.size);
    if (e->rec.failed) e->f->body.failed = true;
    kiln_ir_sb_free(&e->rec);
    memset(&e->rec, 0, sizeof(e->rec));
    kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> ()",
                  kiln_import_name(m, KILN_IMPORT_CB_FINALIZE), e->cb);
    kiln_asm_emit(e->f, "global.store_if_null.ref %%r%u, @__%.*s_cb%u, %%r%u",
                  e->cb, (int)fname.size, fname.data, segment, e->cb);
    kiln_asm_emit(e->f, "br ^L%u", ready);
    kiln_asm_place_label(e->f, ready);
  }
  e->cb_dynamic = false;

  uint32_t wait;
  if (e->is_async && !e->wait_consumed) {
    wait = e->wait_fence;
    e->wait_consumed = true;
  } else {
    wait = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
    kiln_asm_emit(e->f, "const.ref.null %%r%u", wait);
  }
  uint32_t fence;
  if (final_signal) {
    fence = e->signal_fence;
  } else {
    fence = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
    kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> (%%r%u)",
                  kiln_import_name(m, KILN_IMPORT_FENCE_CREATE), e->device,
                  fence);
  }
  // The binding table: (buffer, offset, length) per slot.
  kiln_ir_string_builder_t line = {0};
  kiln_ir_sb_printf(&line, "call.import @%s(%%r%u, %%r%u, %%r%u, %%r%u, %%i%u",
                    kiln_import_name(m, KILN_IMPORT_QUEUE_EXECUTE), e->device,
                    wait, fence, e->cb,
                    kiln_asm_const_i32(e->f, (int32_t)e->num_slots));
  for (uint32_t i = 0; i < e->num_slots; ++i) {
    kiln_hstore_t* st = e->slots[i];
    uint32_t offset =
        st->offset_known ? kiln_asm_const_i64(e->f, 0) : st->offset;
    uint32_t length =
        st->dyn_length
            ? st->length_reg
            : kiln_asm_const_i64(
                  e->f, st->offset_known ? st->slot_length : st->length);
    kiln_ir_sb_printf(&line, ", %%r%u, %%l%u, %%l%u", st->buffer, offset,
                      length);
  }
  kiln_ir_sb_printf(&line, ") -> ()");
  kiln_asm_emit(e->f, "%.*s", (int)line.size, line.data ? line.data : "");
  if (line.failed) e->f->body.failed = true;
  kiln_ir_sb_free(&line);
  e->has_cb = false;
  if (final_signal) return;
  uint32_t st = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
  kiln_asm_emit(e->f, "call.import @%s(%%l%u, %%r%u) -> (%%i%u)",
                kiln_import_name(m, KILN_IMPORT_FENCE_AWAIT),
                kiln_asm_const_i64(e->f, -1), fence, st);
  uint32_t fail = kiln_asm_label(e->f), ok = kiln_asm_label(e->f);
  kiln_asm_emit(e->f, "br.cond %%i%u, ^L%u, ^L%u", st, fail, ok);
  kiln_asm_place_label(e->f, fail);
  kiln_asm_emit(e->f, "fail %%i%u, \"device work failed\"", st);
  kiln_asm_place_label(e->f, ok);
}

// Inside a recording block: the prepared executable |name|, cached in the
// module global @__exe_<name> (created on first use with
// hal.executable.create, published with store_if_null).
static uint32_t kiln_em_executable(kiln_em_function_t* e,
                                   kiln_string_view_t name) {
  uint32_t exe_reg =
      (uint32_t)(uintptr_t)kiln_ptr_map_get(&e->executables, name.data);
  if (exe_reg) return exe_reg - 1;
  kiln_em_module_t* m = e->m;
  if (!kiln_ptr_map_get(&m->exe_globals, name.data)) {
    kiln_ir_sb_printf(&m->globals, "global @__exe_%.*s : ref\n", (int)name.size,
                      name.data);
    kiln_ptr_map_put(&m->exe_globals, name.data, (void*)(uintptr_t)1);
  }
  exe_reg = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  uint32_t is_null = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
  uint32_t ref = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  uint32_t fresh = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  uint32_t create = kiln_asm_label(e->f), have = kiln_asm_label(e->f);
  kiln_asm_emit(e->f, "global.load.ref %%r%u, @__exe_%.*s", exe_reg,
                (int)name.size, name.data);
  kiln_asm_emit(e->f, "ref.is_null %%i%u, %%r%u", is_null, exe_reg);
  kiln_asm_emit(e->f, "br.cond %%i%u, ^L%u, ^L%u", is_null, create, have);
  kiln_asm_place_label(e->f, create);
  kiln_asm_emit(e->f, "executable.ref %%r%u, @%.*s", ref, (int)name.size,
                name.data);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%r%u) -> (%%r%u)",
                kiln_import_name(m, KILN_IMPORT_EXECUTABLE_CREATE), e->device,
                ref, fresh);
  kiln_asm_emit(e->f, "global.store_if_null.ref %%r%u, @__exe_%.*s, %%r%u",
                exe_reg, (int)name.size, name.data, fresh);
  kiln_asm_emit(e->f, "br ^L%u", have);
  kiln_asm_place_label(e->f, have);
  kiln_ptr_map_put(&e->executables, name.data, (void*)(uintptr_t)(exe_reg + 1));
  return exe_reg;
}

// Fails the call with INVALID_ARGUMENT and |msg| unless the i32 register
// |cond| is non-zero.
static void kiln_em_fail_unless(kiln_em_function_t* e, uint32_t cond,
                                const char* msg, size_t msg_size) {
  uint32_t ok = kiln_asm_label(e->f), bad = kiln_asm_label(e->f);
  kiln_asm_emit(e->f, "br.cond %%i%u, ^L%u, ^L%u", cond, ok, bad);
  kiln_asm_place_label(e->f, bad);
  kiln_ir_string_builder_t line = {0};
  kiln_ir_sb_printf(&line, "fail %%i%u, ",
                    kiln_asm_const_i32(e->f, KILN_STATUS_INVALID_ARGUMENT));
  kiln_asm_quote(&line, msg, msg_size);
  kiln_asm_emit(e->f, "%.*s", (int)line.size, line.data ? line.data : "");
  if (line.failed) e->f->body.failed = true;
  kiln_ir_sb_free(&line);
  kiln_asm_place_label(e->f, ok);
}

// The largest run-time dim (push constants are i32) and byte size of a
// dynamically sized value.
#define KILN_EM_MAX_DIM INT32_MAX
#define KILN_EM_MAX_BYTES (INT64_C(1) << 46)

// Run-time sizes of a dynamic result of |op| (dims |regs| of type |t|) must
// be in [0, 2^31) and their product in bytes at most 2^46: a shape
// computation that went negative or overflowed fails the call naming the
// dispatch and the dim instead of allocating a wrong buffer. *out_bytes:
// the byte length (an i64 register).
static kiln_status_t kiln_em_check_sizes(kiln_em_function_t* e,
                                         kiln_ir_op_t* op,
                                         const kiln_ir_type_t* t,
                                         const uint32_t* regs,
                                         uint32_t* out_bytes) {
  const kiln_ir_attribute_t* entry = kiln_ir_op_get_attr(op, "entry");
  kiln_string_view_t name =
      entry && entry->kind == KILN_IR_ATTR_STRING ? entry->str : op->name;
  uint32_t bytes = kiln_asm_const_i64(
      e->f, (int64_t)kiln_ir_type_storage_bytes(kiln_ir_type_element(t)));
  for (size_t d = 0; d < t->shaped.rank; ++d) {
    if (t->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
      uint32_t r = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
      kiln_asm_emit(e->f, "mul.i64 %%l%u, %%l%u, %%l%u", r, bytes, regs[d]);
      bytes = r;
      continue;
    }
    char msg[256];
    snprintf(msg, sizeof(msg),
             "'%.*s': dim %zu of its %s result is negative or above 2^31-1 "
             "at run time",
             (int)name.size, name.data, d,
             kiln_ir_type_to_string(e->m->ctx, t));
    uint32_t ok = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
    kiln_asm_emit(e->f, "cmp.le.u.i64 %%i%u, %%l%u, %%l%u", ok, regs[d],
                  kiln_asm_const_i64(e->f, KILN_EM_MAX_DIM));
    kiln_em_fail_unless(e, ok, msg, strlen(msg));
    // bytes * dim <= max  <=>  dim <= max / bytes (bytes >= 1 here).
    uint32_t room = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    uint32_t denom = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    kiln_asm_emit(e->f, "max.s.i64 %%l%u, %%l%u, %%l%u", denom, bytes,
                  kiln_asm_const_i64(e->f, 1));
    kiln_asm_emit(e->f, "div.u.i64 %%l%u, %%l%u, %%l%u", room,
                  kiln_asm_const_i64(e->f, KILN_EM_MAX_BYTES), denom);
    uint32_t fits = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
    kiln_asm_emit(e->f, "cmp.le.u.i64 %%i%u, %%l%u, %%l%u", fits, regs[d],
                  room);
    snprintf(msg, sizeof(msg),
             "'%.*s': its %s result would need more than 2^46 bytes at run "
             "time",
             (int)name.size, name.data, kiln_ir_type_to_string(e->m->ctx, t));
    kiln_em_fail_unless(e, fits, msg, strlen(msg));
    uint32_t r = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    kiln_asm_emit(e->f, "mul.i64 %%l%u, %%l%u, %%l%u", r, bytes, regs[d]);
    bytes = r;
  }
  *out_bytes = bytes;
  return kiln_ok_status();
}

static kiln_status_t kiln_em_dispatch(kiln_em_function_t* e, kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* exe = kiln_ir_op_get_attr(op, "executable");
  const kiln_ir_attribute_t* wg = kiln_ir_op_get_attr(op, "workgroup_count");
  const kiln_ir_attribute_t* storage =
      kiln_ir_op_get_attr(op, "result_storage");
  if (!exe || exe->kind != KILN_IR_ATTR_SYMBOL_REF || !wg ||
      wg->kind != KILN_IR_ATTR_DENSE_ARRAY || wg->dense_array.count != 3 ||
      !storage || storage->kind != KILN_IR_ATTR_DENSE_ARRAY ||
      storage->dense_array.count != op->num_results) {
    return kiln_em_error(e, op,
                         "dispatch region was not compiled and scheduled "
                         "(run vmvx-codegen and schedule first)");
  }
  uint32_t num_operands = kiln_dispatch_num_tensor_operands(op);
  uint32_t num_bindings = num_operands + op->num_results;
  if (8 + 4 * num_bindings > 255) {
    return kiln_em_error(e, op, "too many bindings for one dispatch");
  }
  kiln_hstore_t* stores[64];
  if (num_bindings > 64) return kiln_em_error(e, op, "too many bindings");
  for (uint32_t i = 0; i < num_operands; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_em_storage(e, op, kiln_ir_op_operand(op, i), &stores[i]));
  }
  // Dynamic shapes: push constants (dims of operands) and the workgroup
  // count, computed from the dims before the command buffer is recorded.
  const kiln_ir_attribute_t* push = kiln_ir_op_get_attr(op, "push_dims");
  const kiln_ir_attribute_t* wg_dim = kiln_ir_op_get_attr(op, "workgroup_dim");
  uint32_t push_regs[64];
  uint32_t num_push = 0;
  bool dynamic = false;
  if (push && push->kind == KILN_IR_ATTR_DENSE_ARRAY) {
    if (push->dense_array.count / 2 > 64) {
      return kiln_em_error(e, op, "too many dynamic dims");
    }
    for (size_t k = 0; k + 1 < push->dense_array.count; k += 2) {
      int64_t operand = push->dense_array.i64[k];
      if (operand < 0) return kiln_em_error(e, op, "malformed push_dims");
      uint32_t dim = 0;
      KILN_RETURN_IF_ERROR(kiln_em_size_source(
          e, op, operand, push->dense_array.i64[k + 1], &dim));
      push_regs[num_push] = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
      kiln_asm_emit(e->f, "trunc.i64.i32 %%i%u, %%l%u", push_regs[num_push],
                    dim);
      ++num_push;
      dynamic = true;
    }
  }
  uint32_t wg_regs[3];
  for (int k = 0; k < 3; ++k) {
    wg_regs[k] = kiln_asm_const_i32(e->f, (int32_t)wg->dense_array.i64[k]);
  }
  if (wg->dense_array.i64[0] < 0) {
    if (!wg_dim || wg_dim->kind != KILN_IR_ATTR_DENSE_ARRAY ||
        wg_dim->dense_array.count != 3 || wg_dim->dense_array.i64[0] < 0 ||
        wg_dim->dense_array.i64[2] < 1) {
      return kiln_em_error(e, op, "dynamic workgroup count without its dim");
    }
    uint32_t dim = 0;
    KILN_RETURN_IF_ERROR(kiln_em_size_source(e, op, wg_dim->dense_array.i64[0],
                                             wg_dim->dense_array.i64[1], &dim));
    int64_t rows = wg_dim->dense_array.i64[2];
    uint32_t sum = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    uint32_t count = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    kiln_asm_emit(e->f, "add.i64 %%l%u, %%l%u, %%l%u", sum, dim,
                  kiln_asm_const_i64(e->f, rows - 1));
    kiln_asm_emit(e->f, "div.s.i64 %%l%u, %%l%u, %%l%u", count, sum,
                  kiln_asm_const_i64(e->f, rows));
    wg_regs[0] = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
    kiln_asm_emit(e->f, "trunc.i64.i32 %%i%u, %%l%u", wg_regs[0], count);
    dynamic = true;
  }
  // Dynamically shaped results: their dims from result_dims (see
  // vmvx-codegen), then a buffer of that many bytes.
  const kiln_ir_attribute_t* result_dims =
      kiln_ir_op_get_attr(op, "result_dims");
  size_t next_result_dim = 0;
  for (uint32_t r = 0; r < op->num_results; ++r) {
    kiln_ir_value_t* result = &op->results[r];
    const kiln_ir_type_t* rt = result->type;
    kiln_hstore_t* s = kiln_em_new_store(e);
    if (!s) return kiln_ir_context_take_error(e->m->ctx);
    int64_t offset = storage->dense_array.i64[r];
    if (!kiln_ir_type_has_static_shape(rt)) {
      uint32_t* regs = (uint32_t*)kiln_ir_arena_alloc(
          e->m->ctx, sizeof(uint32_t) * (rt->shaped.rank + 1));
      if (!regs) return kiln_ir_context_take_error(e->m->ctx);
      for (size_t d = 0; d < rt->shaped.rank; ++d) {
        if (rt->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
          regs[d] = kiln_asm_const_i64(e->f, rt->shaped.dims[d]);
          continue;
        }
        if (!result_dims || result_dims->kind != KILN_IR_ATTR_DENSE_ARRAY ||
            2 * next_result_dim + 1 >= result_dims->dense_array.count) {
          return kiln_em_error(e, op,
                               "a dynamically shaped result without its "
                               "result_dims");
        }
        const int64_t* src = &result_dims->dense_array.i64[2 * next_result_dim];
        ++next_result_dim;
        KILN_RETURN_IF_ERROR(
            kiln_em_size_source(e, op, src[0], src[1], &regs[d]));
      }
      KILN_RETURN_IF_ERROR(kiln_em_alloc_dynamic(e, op, result, regs, s));
      stores[num_operands + r] = s;
      continue;
    }
    s->length = kiln_tensor_bytes(rt);
    if (offset < 0) {
      s->buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
      kiln_asm_emit(
          e->f, "call.import @%s(%%r%u, %%l%u) -> (%%r%u)",
          kiln_import_name(e->m, KILN_IMPORT_BUFFER_ALLOCATE), e->device,
          kiln_asm_const_i64(e->f, s->length > 0 ? s->length : 1), s->buffer);
      offset = 0;
      s->slot_length = s->length > 0 ? s->length : 1;
    } else {
      s->buffer = e->transient;
      s->slot_length = e->transient_size;
    }
    s->offset = kiln_asm_const_i64(e->f, offset);
    s->offset_known = true;
    s->const_offset = offset;
    kiln_ptr_map_put(&e->storage, &op->results[r], s);
    stores[num_operands + r] = s;
  }
  // A call site's command buffer has at most KILN_EM_MAX_SLOTS slots.
  if (e->has_cb && e->num_slots + num_bindings > KILN_EM_MAX_SLOTS) {
    kiln_em_submit(e, false);
  }
  kiln_em_open_cb(e);
  for (uint32_t i = 0; i < num_bindings; ++i) {
    if (stores[i]->dyn_length) dynamic = true;
  }
  if (dynamic) e->cb_dynamic = true;
  uint32_t slots[64];
  for (uint32_t i = 0; i < num_bindings; ++i) {
    slots[i] = kiln_em_slot(e, stores[i]);
  }
  // Everything below is recorded once (see kiln_em_submit).
  kiln_em_rec_swap(e);
  uint32_t exe_reg = kiln_em_executable(e, exe->symbol.root);
  // Barrier when this dispatch reads what was written, or writes what was
  // read or written, since the last barrier.
  bool barrier = false;
  for (uint32_t i = 0; i < num_bindings && !barrier; ++i) {
    kiln_access_t a = kiln_access_of(stores[i]);
    for (size_t w = 0; w < e->num_writes && !barrier; ++w) {
      barrier = kiln_access_overlaps(&a, &e->writes[w]);
    }
    if (i >= num_operands) {
      for (size_t r = 0; r < e->num_reads && !barrier; ++r) {
        barrier = kiln_access_overlaps(&a, &e->reads[r]);
      }
    }
  }
  if (barrier || e->num_reads + num_bindings > KILN_EM_MAX_ACCESSES ||
      e->num_writes + num_bindings > KILN_EM_MAX_ACCESSES) {
    kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> ()",
                  kiln_import_name(e->m, KILN_IMPORT_CB_BARRIER), e->cb);
    e->num_reads = e->num_writes = 0;
  }
  for (uint32_t i = 0; i < num_bindings; ++i) {
    if (i < num_operands) {
      e->reads[e->num_reads++] = kiln_access_of(stores[i]);
    } else {
      e->writes[e->num_writes++] = kiln_access_of(stores[i]);
    }
  }
  // The entry point's ordinal in its executable (0 unless a backend put
  // several entry points in one executable).
  const kiln_ir_attribute_t* ordinal_attr =
      kiln_ir_op_get_attr(op, "entry_ordinal");
  int32_t entry_ordinal =
      ordinal_attr && ordinal_attr->kind == KILN_IR_ATTR_INTEGER
          ? (int32_t)ordinal_attr->i
          : 0;
  // The dispatch call: every binding is (slot, null, offset in the slot's
  // range, length); the buffers come from the binding table at execution.
  kiln_ir_string_builder_t args = {0};
  kiln_ir_sb_printf(
      &args, "%%r%u, %%r%u, %%i%u, %%i%u, %%i%u, %%i%u, %%i%u, %%i%u", e->cb,
      exe_reg, kiln_asm_const_i32(e->f, entry_ordinal), wg_regs[0], wg_regs[1],
      wg_regs[2], kiln_asm_const_i32(e->f, (int32_t)num_push),
      kiln_asm_const_i32(e->f, (int32_t)num_bindings));
  for (uint32_t k = 0; k < num_push; ++k) {
    kiln_ir_sb_printf(&args, ", %%i%u", push_regs[k]);
  }
  for (uint32_t b = 0; b < num_bindings; ++b) {
    uint32_t offset = stores[b]->offset_known ? stores[b]->offset
                                              : kiln_asm_const_i64(e->f, 0);
    kiln_ir_sb_printf(&args, ", %%i%u, %%r%u, %%l%u, %%l%u",
                      kiln_asm_const_i32(e->f, (int32_t)slots[b]), e->null_ref,
                      offset, kiln_em_length_reg(e, stores[b]));
  }
  kiln_ir_string_builder_t line = {0};
  kiln_ir_sb_printf(&line, "call.import @%s(%.*s) -> ()",
                    kiln_import_name(e->m, KILN_IMPORT_CB_DISPATCH),
                    (int)args.size, args.data ? args.data : "");
  kiln_ir_sb_append(&e->f->body, "  ", 2);
  if (line.data) kiln_ir_sb_append(&e->f->body, line.data, line.size);
  kiln_ir_sb_append(&e->f->body, "\n", 1);
  kiln_em_rec_swap(e);
  bool failed = args.failed || line.failed;
  kiln_ir_sb_free(&args);
  kiln_ir_sb_free(&line);
  if (failed) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  return kiln_ok_status();
}

// The dense constant operand of a check.*_const op.
static const kiln_ir_attribute_t* kiln_em_check_const(kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* v = kiln_ir_op_get_attr(op, "value");
  if (v && v->kind == KILN_IR_ATTR_DENSE_ELEMENTS) return v;
  for (uint32_t i = 0; i < op->num_attributes; ++i) {
    if (op->attributes[i].value->kind == KILN_IR_ATTR_DENSE_ELEMENTS) {
      return op->attributes[i].value;
    }
  }
  return NULL;
}

static double kiln_em_float_attr(kiln_ir_op_t* op, const char* name,
                                 double fallback) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(op, name);
  if (a && a->kind == KILN_IR_ATTR_FLOAT) return a->f.value;
  return fallback;
}

static kiln_status_t kiln_em_check(kiln_em_function_t* e, kiln_ir_op_t* op) {
  kiln_em_submit(e, false);
  bool is_const =
      kiln_string_view_ends_with(op->name, kiln_make_cstring_view("_const"));
  bool almost = kiln_ir_op_is(op, "check.expect_almost_eq") ||
                kiln_ir_op_is(op, "check.expect_almost_eq_const");
  bool eq = kiln_ir_op_is(op, "check.expect_eq") ||
            kiln_ir_op_is(op, "check.expect_eq_const");
  if (kiln_ir_op_is(op, "check.expect_all_true")) {
    uint32_t v = 0;
    KILN_RETURN_IF_ERROR(kiln_em_view(e, op, kiln_ir_op_operand(op, 0), &v));
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%r%u) -> ()",
                  kiln_import_name(e->m, KILN_IMPORT_CHECK_EXPECT_ALL_TRUE),
                  e->device, v);
    return kiln_ok_status();
  }
  if (!almost && !eq) {
    return kiln_ir_op_emit_error(op, e->m->ctx,
                                 "vm-emission: unsupported check op '%.*s'",
                                 (int)op->name.size, op->name.data);
  }
  uint32_t lhs = 0, rhs = 0;
  KILN_RETURN_IF_ERROR(kiln_em_view(e, op, kiln_ir_op_operand(op, 0), &lhs));
  if (is_const) {
    const kiln_ir_attribute_t* c = kiln_em_check_const(op);
    if (!c) return kiln_em_error(e, op, "missing the expected constant");
    uint32_t ordinal = 0;
    KILN_RETURN_IF_ERROR(kiln_em_constant_rodata(e->m, op, c, &ordinal));
    kiln_hstore_t* s = kiln_em_new_store(e);
    if (!s) return kiln_ir_context_take_error(e->m->ctx);
    uint32_t ro = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
    s->buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
    kiln_asm_emit(e->f, "rodata.ref %%r%u, @__rodata_%u", ro, ordinal);
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%r%u) -> (%%r%u)",
                  kiln_import_name(e->m, KILN_IMPORT_BUFFER_WRAP_RODATA),
                  e->device, ro, s->buffer);
    s->offset = kiln_asm_const_i64(e->f, 0);
    s->offset_known = true;
    s->length = kiln_tensor_bytes(c->type);
    // A fake value of the constant's type to build the view.
    kiln_ir_value_t fake;
    memset(&fake, 0, sizeof(fake));
    fake.kind = KILN_IR_VALUE_BLOCK_ARG;
    fake.type = c->type;
    kiln_ptr_map_put(&e->storage, &fake, s);
    kiln_status_t status = kiln_em_view(e, op, &fake, &rhs);
    kiln_ptr_map_put(&e->storage, &fake, NULL);
    KILN_RETURN_IF_ERROR(status);
  } else {
    KILN_RETURN_IF_ERROR(kiln_em_view(e, op, kiln_ir_op_operand(op, 1), &rhs));
  }
  if (almost) {
    kiln_asm_emit(
        e->f, "call.import @%s(%%r%u, %%r%u, %%r%u, %%f%u, %%f%u) -> ()",
        kiln_import_name(e->m, KILN_IMPORT_CHECK_EXPECT_ALMOST_EQ), e->device,
        lhs, rhs,
        kiln_asm_const_f32(e->f, (float)kiln_em_float_attr(op, "atol", 1e-4)),
        kiln_asm_const_f32(e->f, (float)kiln_em_float_attr(op, "rtol", 0.0)));
  } else {
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%r%u, %%r%u) -> ()",
                  kiln_import_name(e->m, KILN_IMPORT_CHECK_EXPECT_EQ),
                  e->device, lhs, rhs);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Calls of other modules' functions
//===----------------------------------------------------------------------===//

static kiln_hstore_t* kiln_em_store_of_view(kiln_em_function_t* e,
                                            uint32_t view,
                                            const kiln_ir_type_t* t);

// The ref register of the !util.buffer |v| that |op| uses: a
// util.buffer.constant or util.buffer.alloc of this function.
static kiln_status_t kiln_em_buffer_ref(kiln_em_function_t* e, kiln_ir_op_t* op,
                                        kiln_ir_value_t* v, uint32_t* out) {
  int bank = 0;
  if (!kiln_em_host_scalar(e, v, &bank, out) || bank != KILN_VM_BANK_REF) {
    return kiln_em_error(e, op,
                         "the buffer must be a util.buffer.constant or "
                         "util.buffer.alloc of this function");
  }
  return kiln_ok_status();
}

// A !util.buffer as the VM sees it: the buffer (ref register), and for a
// util.buffer.subspan the view's byte offset and length (i64 registers;
// for a whole buffer |view| is false).
typedef struct kiln_em_bview_t {
  uint32_t base;
  bool view;
  uint32_t offset, length;
  bool block_arg;  // a block argument (a whole buffer or a view arrives)
} kiln_em_bview_t;

// The !util.buffer |v| that |op| uses (kiln_em_buffer_ref, or a subspan).
static kiln_status_t kiln_em_buffer_view(kiln_em_function_t* e,
                                         kiln_ir_op_t* op, kiln_ir_value_t* v,
                                         kiln_em_bview_t* out) {
  kiln_em_bview_t* view =
      (kiln_em_bview_t*)kiln_ptr_map_get(&e->buffer_views, v);
  if (view) {
    *out = *view;
    return kiln_ok_status();
  }
  out->view = false;
  out->block_arg = false;
  out->offset = out->length = 0;
  return kiln_em_buffer_ref(e, op, v, &out->base);
}

// The byte length of |b| (an i64 register).
static uint32_t kiln_em_bview_length(kiln_em_function_t* e,
                                     const kiln_em_bview_t* b) {
  if (b->view) return b->length;
  uint32_t length = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  kiln_asm_emit(e->f, "buffer.length %%l%u, %%r%u", length, b->base);
  return length;
}

// `func.call @module_a.abs(%t)` of a declaration: a VM import of that name
// (resolved against the modules loaded before this one), called with the
// synchronous ABI: the pending work is submitted and awaited, tensors go as
// buffer views, results come back as views whose buffers are used like
// arguments'.
static kiln_status_t kiln_em_import_call(kiln_em_function_t* e,
                                         kiln_ir_op_t* op,
                                         kiln_string_view_t callee) {
  kiln_em_module_t* m = e->m;
  uint32_t n = kiln_ir_op_num_regular_operands(op);
  if (n > 32 || op->num_results > 32) {
    return kiln_em_error(e, op, "too many operands or results");
  }
  // Each operand and result: its VM bank and register; the import's
  // signature has one type char each (kiln_em_abi_char, as the callee's
  // export: 'r' for tensors as buffer views and for !util.buffer).
  char sig_args[33], sig_results[33];
  int banks[32], result_banks[32];
  for (uint32_t i = 0; i < n; ++i) {
    const kiln_ir_type_t* t = kiln_ir_op_operand(op, i)->type;
    sig_args[i] = kiln_em_abi_char(t);
    if (sig_args[i] == '?' ||
        (sig_args[i] == 'r' && !kiln_ir_type_is_ranked_tensor(t) &&
         !kiln_em_is_util_buffer(t))) {
      return kiln_em_error(e, op,
                           "calls of other modules' functions take tensors, "
                           "!util.buffer and i1..i64/index/f32/f64 only");
    }
    banks[i] = kiln_vm_bank_of_type_char(sig_args[i]);
  }
  for (uint32_t i = 0; i < op->num_results; ++i) {
    const kiln_ir_type_t* t = op->results[i].type;
    sig_results[i] = kiln_em_abi_char(t);
    if (sig_results[i] == '?' ||
        (sig_results[i] == 'r' && !kiln_em_is_util_buffer(t) &&
         (!kiln_ir_type_is_ranked_tensor(t) ||
          !kiln_ir_type_has_static_shape(t)))) {
      return kiln_em_error(e, op,
                           "calls of other modules' functions return "
                           "statically shaped tensors, !util.buffer and "
                           "i1..i64/index/f32/f64 only");
    }
    result_banks[i] = kiln_vm_bank_of_type_char(sig_results[i]);
  }
  sig_args[n] = 0;
  sig_results[op->num_results] = 0;
  uint32_t views[32];
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
    if (kiln_em_is_util_buffer(v->type)) {
      // The VM passes whole buffers: a view has no buffer of its own.
      kiln_em_bview_t b;
      KILN_RETURN_IF_ERROR(kiln_em_buffer_view(e, op, v, &b));
      if (b.view) {
        return kiln_em_error(e, op,
                             "a util.buffer.subspan view (or a buffer block "
                             "argument) cannot be passed to another module's "
                             "function: pass the whole buffer");
      }
      views[i] = b.base;
      continue;
    }
    if (banks[i] != KILN_VM_BANK_REF) {
      int bank = 0;
      if (!kiln_em_host_scalar(e, v, &bank, &views[i]) || bank != banks[i]) {
        return kiln_em_error(e, op,
                             "a scalar argument of another module's function "
                             "must be computed at host level");
      }
      continue;
    }
    // A tensor.empty argument is storage the callee may write (IREE's
    // iree.abi.output arguments): a fresh buffer (kiln_em_storage).
    KILN_RETURN_IF_ERROR(kiln_em_view(e, op, v, &views[i]));
  }
  kiln_em_submit(e, false);
  kiln_ir_string_builder_t line = {0};
  kiln_ir_sb_printf(&line, "call.import @%.*s(", (int)callee.size, callee.data);
  for (uint32_t i = 0; i < n; ++i) {
    kiln_ir_sb_printf(&line, "%s%%%c%u", i ? ", " : "",
                      kiln_vm_bank_prefix(banks[i]), views[i]);
  }
  kiln_ir_sb_printf(&line, ") -> (");
  uint32_t results[32];
  for (uint32_t i = 0; i < op->num_results; ++i) {
    results[i] = kiln_asm_reg(e->f, result_banks[i]);
    kiln_ir_sb_printf(&line, "%s%%%c%u", i ? ", " : "",
                      kiln_vm_bank_prefix(result_banks[i]), results[i]);
  }
  kiln_ir_sb_printf(&line, ")");
  kiln_asm_emit(e->f, "%.*s", (int)line.size, line.data ? line.data : "");
  if (line.failed) e->f->body.failed = true;
  kiln_ir_sb_free(&line);
  for (uint32_t i = 0; i < op->num_results; ++i) {
    if (result_banks[i] != KILN_VM_BANK_REF ||
        kiln_em_is_util_buffer(op->results[i].type)) {
      kiln_ptr_map_put(&e->host_scalars, &op->results[i],
                       kiln_em_pack(result_banks[i], results[i]));
      continue;
    }
    kiln_hstore_t* s =
        kiln_em_store_of_view(e, results[i], op->results[i].type);
    if (!s) return kiln_ir_context_take_error(m->ctx);
    kiln_ptr_map_put(&e->storage, &op->results[i], s);
  }
  if (!kiln_ptr_map_get(&m->user_import_names, callee.data)) {
    kiln_ptr_map_put(&m->user_import_names, callee.data, (void*)1);
    kiln_ir_sb_printf(&m->user_imports, "import @%.*s : %s->%s\n",
                      (int)callee.size, callee.data, sig_args, sig_results);
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Host control flow
//===----------------------------------------------------------------------===//

// `%x = tensor.extract %t[...]` at host level: awaits the work producing
// %t, then reads the scalar back (hal.buffer.load, 4 bytes at a time) into
// a register of its bank (i1..i32 and f32 in 4 bytes, i64/index/f64 in 8).
static kiln_status_t kiln_em_host_extract(kiln_em_function_t* e,
                                          kiln_ir_op_t* op) {
  kiln_ir_value_t* t = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* tt = t->type;
  const kiln_ir_type_t* et = op->results[0].type;
  size_t width = kiln_ir_type_storage_bytes(et);
  char abi = kiln_em_abi_char(et);
  bool is_int = kiln_ir_type_is_integer(et) || kiln_ir_type_is_index(et);
  if (!(is_int && (width == 1 || width == 2 || width == 4 || width == 8)) &&
      !(kiln_ir_type_is_float(et) && (width == 4 || width == 8))) {
    return kiln_em_error(e, op,
                         "reading back a scalar at host level supports "
                         "i1..i64, index, f32 and f64 elements only");
  }
  int64_t linear = 0;
  uint32_t num_indices = kiln_ir_op_num_regular_operands(op) - 1;
  for (uint32_t i = 0; i < num_indices; ++i) {
    kiln_ir_value_t* idx = kiln_ir_op_operand(op, 1 + i);
    const kiln_ir_attribute_t* c =
        idx->kind == KILN_IR_VALUE_RESULT && idx->defining_op
            ? kiln_ir_op_get_attr(idx->defining_op, "value")
            : NULL;
    if (!c || c->kind != KILN_IR_ATTR_INTEGER) {
      return kiln_em_error(e, op,
                           "reading back a scalar at host level needs "
                           "constant indices");
    }
    linear = linear * tt->shaped.dims[i] + c->i;
  }
  kiln_hstore_t* s = NULL;
  KILN_RETURN_IF_ERROR(kiln_em_storage(e, op, t, &s));
  kiln_em_submit(e, false);
  uint32_t offset = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  kiln_asm_emit(e->f, "add.i64 %%l%u, %%l%u, %%l%u", offset, s->offset,
                kiln_asm_const_i64(e->f, linear * (int64_t)width));
  uint32_t value = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
  kiln_asm_emit(
      e->f, "call.import @%s(%%r%u, %%l%u, %%i%u) -> (%%i%u)",
      kiln_import_name(e->m, KILN_IMPORT_BUFFER_LOAD), s->buffer, offset,
      kiln_asm_const_i32(e->f, (int32_t)(width < 4 ? width : 4)), value);
  int bank = KILN_VM_BANK_I32;
  uint32_t reg = value;
  if (width == 8) {
    // Little-endian: the high word follows.
    uint32_t hi_off = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    uint32_t hi = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
    kiln_asm_emit(e->f, "add.i64 %%l%u, %%l%u, %%l%u", hi_off, offset,
                  kiln_asm_const_i64(e->f, 4));
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%l%u, %%i%u) -> (%%i%u)",
                  kiln_import_name(e->m, KILN_IMPORT_BUFFER_LOAD), s->buffer,
                  hi_off, kiln_asm_const_i32(e->f, 4), hi);
    uint32_t lo64 = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    uint32_t hi64 = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    kiln_asm_emit(e->f, "ext.i32.i64.u %%l%u, %%i%u", lo64, value);
    kiln_asm_emit(e->f, "ext.i32.i64.u %%l%u, %%i%u", hi64, hi);
    kiln_asm_emit(e->f, "shl.i64 %%l%u, %%l%u, %%l%u", hi64, hi64,
                  kiln_asm_const_i64(e->f, 32));
    kiln_asm_emit(e->f, "or.i64 %%l%u, %%l%u, %%l%u", lo64, lo64, hi64);
    bank = KILN_VM_BANK_I64;
    reg = lo64;
    if (abi == 'F') {
      bank = KILN_VM_BANK_F64;
      reg = kiln_asm_reg(e->f, bank);
      kiln_asm_emit(e->f, "bitcast.i64.f64 %%d%u, %%l%u", reg, lo64);
    }
  } else if (abi == 'f') {
    bank = KILN_VM_BANK_F32;
    reg = kiln_asm_reg(e->f, bank);
    kiln_asm_emit(e->f, "bitcast.i32.f32 %%f%u, %%i%u", reg, value);
  }
  if (bank == KILN_VM_BANK_I32) {
    kiln_ptr_map_put(&e->scalars, &op->results[0],
                     (void*)(uintptr_t)(value + 1));
  }
  kiln_ptr_map_put(&e->host_scalars, &op->results[0], kiln_em_pack(bank, reg));
  return kiln_ok_status();
}

// tensor.dim at host level: the dim's register (a constant, an argument's
// view dim, a dynamic dispatch result's computed size).
static kiln_status_t kiln_em_host_dim(kiln_em_function_t* e, kiln_ir_op_t* op) {
  const kiln_ir_attribute_t* c =
      kiln_ir_constant_value(kiln_ir_op_operand(op, 1));
  kiln_ir_value_t* t = kiln_ir_op_operand(op, 0);
  if (!c || c->kind != KILN_IR_ATTR_INTEGER || c->i < 0 ||
      !kiln_ir_type_is_ranked_tensor(t->type) ||
      (uint64_t)c->i >= t->type->shaped.rank) {
    return kiln_em_error(e, op, "tensor.dim needs a constant dim in range");
  }
  uint32_t reg = 0;
  KILN_RETURN_IF_ERROR(kiln_em_dim(e, op, t, (size_t)c->i, &reg));
  kiln_ptr_map_put(&e->host_scalars, &op->results[0],
                   kiln_em_pack(KILN_VM_BANK_I64, reg));
  return kiln_ok_status();
}

// tensor.cast from a dynamic dim to a static one: the run-time dim must be
// the static one (else the call fails naming both, instead of reading past
// the buffer).
static kiln_status_t kiln_em_check_cast(kiln_em_function_t* e,
                                        kiln_ir_op_t* op) {
  kiln_ir_value_t* from = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* ft = from->type;
  const kiln_ir_type_t* tt = op->results[0].type;
  if (!kiln_ir_type_is_ranked_tensor(ft) ||
      !kiln_ir_type_is_ranked_tensor(tt) ||
      ft->shaped.rank != tt->shaped.rank) {
    return kiln_ok_status();
  }
  for (size_t d = 0; d < tt->shaped.rank; ++d) {
    if (ft->shaped.dims[d] != KILN_IR_DYNAMIC_DIM ||
        tt->shaped.dims[d] == KILN_IR_DYNAMIC_DIM) {
      continue;
    }
    uint32_t dim = 0;
    KILN_RETURN_IF_ERROR(kiln_em_dim(e, op, from, d, &dim));
    uint32_t same = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
    kiln_asm_emit(e->f, "cmp.eq.i64 %%i%u, %%l%u, %%l%u", same, dim,
                  kiln_asm_const_i64(e->f, tt->shaped.dims[d]));
    char msg[256];
    snprintf(msg, sizeof(msg),
             "tensor.cast to %s: dim %zu of the run-time shape differs",
             kiln_ir_type_to_string(e->m->ctx, tt), d);
    kiln_em_fail_unless(e, same, msg, strlen(msg));
  }
  return kiln_ok_status();
}

// Shape arithmetic at host level (kiln_schedule_is_shape_op): index values
// in i64 registers, i1 in i32 registers.
static kiln_status_t kiln_em_shape_op(kiln_em_function_t* e, kiln_ir_op_t* op) {
  kiln_asm_function_t* f = e->f;
  kiln_ir_value_t* result = &op->results[0];
  if (kiln_ir_op_is(op, "arith.index_cast") ||
      kiln_ir_op_is(op, "arith.index_castui")) {
    kiln_ir_value_t* v = kiln_ir_op_operand(op, 0);
    uint32_t r = 0;
    if (kiln_ir_type_is_integer(v->type) && v->type->integer.width <= 32 &&
        kiln_ir_op_is(op, "arith.index_castui")) {
      int bank = 0;
      uint32_t narrow = 0;
      if (!kiln_em_host_scalar(e, v, &bank, &narrow)) {
        return kiln_em_error(e, op, "operand is not computed at host level");
      }
      r = kiln_asm_reg(f, KILN_VM_BANK_I64);
      kiln_asm_emit(f, "ext.i32.i64.u %%l%u, %%i%u", r, narrow);
    } else {
      KILN_RETURN_IF_ERROR(kiln_em_scalar_i64(e, op, v, &r));
    }
    kiln_ptr_map_put(&e->host_scalars, result,
                     kiln_em_pack(KILN_VM_BANK_I64, r));
    return kiln_ok_status();
  }
  if (kiln_ir_op_is(op, "arith.select")) {
    int bank = 0;
    uint32_t c = 0, a = 0, b = 0;
    if (!kiln_em_host_scalar(e, kiln_ir_op_operand(op, 0), &bank, &c) ||
        bank != KILN_VM_BANK_I32) {
      return kiln_em_error(e, op, "condition is not computed at host level");
    }
    bool wide = kiln_ir_type_is_index(result->type);
    if (wide) {
      KILN_RETURN_IF_ERROR(
          kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 1), &a));
      KILN_RETURN_IF_ERROR(
          kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 2), &b));
    } else if (!kiln_em_host_scalar(e, kiln_ir_op_operand(op, 1), &bank, &a) ||
               !kiln_em_host_scalar(e, kiln_ir_op_operand(op, 2), &bank, &b)) {
      return kiln_em_error(e, op, "operand is not computed at host level");
    }
    int rb = wide ? KILN_VM_BANK_I64 : KILN_VM_BANK_I32;
    uint32_t r = kiln_asm_reg(f, rb);
    kiln_asm_emit(f, "select.%s %%%c%u, %%i%u, %%%c%u, %%%c%u",
                  wide ? "i64" : "i32", wide ? 'l' : 'i', r, c,
                  wide ? 'l' : 'i', a, wide ? 'l' : 'i', b);
    kiln_ptr_map_put(&e->host_scalars, result, kiln_em_pack(rb, r));
    return kiln_ok_status();
  }
  if (kiln_ir_op_is(op, "arith.cmpi")) {
    static const char* const cmp[] = {"eq",   "ne",   "lt.s", "le.s", "gt.s",
                                      "ge.s", "lt.u", "le.u", "gt.u", "ge.u"};
    const kiln_ir_attribute_t* pred = kiln_ir_op_get_attr(op, "predicate");
    if (!pred || pred->kind != KILN_IR_ATTR_INTEGER || pred->i < 0 ||
        pred->i > 9) {
      return kiln_em_error(e, op, "bad predicate");
    }
    uint32_t a = 0, b = 0;
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 0), &a));
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 1), &b));
    uint32_t r = kiln_asm_reg(f, KILN_VM_BANK_I32);
    kiln_asm_emit(f, "cmp.%s.i64 %%i%u, %%l%u, %%l%u", cmp[pred->i], r, a, b);
    kiln_ptr_map_put(&e->host_scalars, result,
                     kiln_em_pack(KILN_VM_BANK_I32, r));
    return kiln_ok_status();
  }
  if (!kiln_ir_type_is_index(result->type)) {
    // and/or of i1 conditions.
    int ba = 0, bb = 0;
    uint32_t a = 0, b = 0;
    if (!kiln_em_host_scalar(e, kiln_ir_op_operand(op, 0), &ba, &a) ||
        !kiln_em_host_scalar(e, kiln_ir_op_operand(op, 1), &bb, &b) ||
        ba != KILN_VM_BANK_I32 || bb != KILN_VM_BANK_I32 ||
        (!kiln_ir_op_is(op, "arith.andi") && !kiln_ir_op_is(op, "arith.ori"))) {
      return kiln_em_error(e, op, "unsupported i1 shape arithmetic");
    }
    uint32_t r = kiln_asm_reg(f, KILN_VM_BANK_I32);
    kiln_asm_emit(f, "%s.i32 %%i%u, %%i%u, %%i%u",
                  kiln_ir_op_is(op, "arith.andi") ? "and" : "or", r, a, b);
    kiln_ptr_map_put(&e->host_scalars, result,
                     kiln_em_pack(KILN_VM_BANK_I32, r));
    return kiln_ok_status();
  }
  uint32_t a = 0, b = 0;
  KILN_RETURN_IF_ERROR(
      kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 0), &a));
  KILN_RETURN_IF_ERROR(
      kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 1), &b));
  uint32_t r = kiln_asm_reg(f, KILN_VM_BANK_I64);
  static const struct {
    const char* op;
    const char* vm;
  } binary[] = {{"arith.addi", "add.i64"},    {"arith.subi", "sub.i64"},
                {"arith.muli", "mul.i64"},    {"arith.divsi", "div.s.i64"},
                {"arith.divui", "div.u.i64"}, {"arith.remsi", "rem.s.i64"},
                {"arith.remui", "rem.u.i64"}, {"arith.minsi", "min.s.i64"},
                {"arith.maxsi", "max.s.i64"}, {"arith.minui", "min.u.i64"},
                {"arith.maxui", "max.u.i64"}, {"arith.andi", "and.i64"},
                {"arith.ori", "or.i64"}};
  // Divisions by zero fail the call instead of trapping the VM.
  bool divides =
      kiln_ir_op_is(op, "arith.divsi") || kiln_ir_op_is(op, "arith.divui") ||
      kiln_ir_op_is(op, "arith.remsi") || kiln_ir_op_is(op, "arith.remui") ||
      kiln_ir_op_is(op, "arith.ceildivsi") ||
      kiln_ir_op_is(op, "arith.ceildivui") ||
      kiln_ir_op_is(op, "arith.floordivsi");
  if (divides) {
    uint32_t nonzero = kiln_asm_reg(f, KILN_VM_BANK_I32);
    kiln_asm_emit(f, "cmp.ne.i64 %%i%u, %%l%u, %%l%u", nonzero, b,
                  kiln_asm_const_i64(f, 0));
    const char* what = "a run-time size is divided by zero";
    kiln_em_fail_unless(e, nonzero, what, strlen(what));
  }
  bool done = false;
  for (size_t i = 0; i < sizeof(binary) / sizeof(binary[0]) && !done; ++i) {
    if (!kiln_ir_op_is(op, binary[i].op)) continue;
    kiln_asm_emit(f, "%s %%l%u, %%l%u, %%l%u", binary[i].vm, r, a, b);
    done = true;
  }
  if (!done) {
    // ceildiv / floordiv: q = a / b rounded toward zero, then moved by one
    // when the remainder is non-zero and the exact quotient lies beyond.
    bool is_unsigned = kiln_ir_op_is(op, "arith.ceildivui");
    bool ceil = !kiln_ir_op_is(op, "arith.floordivsi");
    uint32_t q = kiln_asm_reg(f, KILN_VM_BANK_I64);
    uint32_t m = kiln_asm_reg(f, KILN_VM_BANK_I64);
    kiln_asm_emit(f, "div.%c.i64 %%l%u, %%l%u, %%l%u", is_unsigned ? 'u' : 's',
                  q, a, b);
    kiln_asm_emit(f, "rem.%c.i64 %%l%u, %%l%u, %%l%u", is_unsigned ? 'u' : 's',
                  m, a, b);
    uint32_t nz = kiln_asm_reg(f, KILN_VM_BANK_I32);
    kiln_asm_emit(f, "cmp.ne.i64 %%i%u, %%l%u, %%l%u", nz, m,
                  kiln_asm_const_i64(f, 0));
    uint32_t adjust = nz;
    if (!is_unsigned) {
      // The exact quotient is positive when a and b have the same sign,
      // i.e. when (a ^ b) >= 0.
      uint32_t x = kiln_asm_reg(f, KILN_VM_BANK_I64);
      uint32_t same = kiln_asm_reg(f, KILN_VM_BANK_I32);
      kiln_asm_emit(f, "xor.i64 %%l%u, %%l%u, %%l%u", x, a, b);
      kiln_asm_emit(f, "cmp.%s.i64 %%i%u, %%l%u, %%l%u", ceil ? "ge.s" : "lt.s",
                    same, x, kiln_asm_const_i64(f, 0));
      adjust = kiln_asm_reg(f, KILN_VM_BANK_I32);
      kiln_asm_emit(f, "and.i32 %%i%u, %%i%u, %%i%u", adjust, nz, same);
    }
    uint32_t step = kiln_asm_reg(f, KILN_VM_BANK_I64);
    kiln_asm_emit(f, "select.i64 %%l%u, %%i%u, %%l%u, %%l%u", step, adjust,
                  kiln_asm_const_i64(f, ceil ? 1 : -1),
                  kiln_asm_const_i64(f, 0));
    kiln_asm_emit(f, "add.i64 %%l%u, %%l%u, %%l%u", r, q, step);
  }
  kiln_ptr_map_put(&e->host_scalars, result, kiln_em_pack(KILN_VM_BANK_I64, r));
  return kiln_ok_status();
}

// `%t = tensor.from_elements %a, ... : tensor<...>` at host level (scalar
// arguments, constants): a per-invocation buffer written by the host
// (hal.buffer.store, 4 bytes at a time) before any work that reads it.
static kiln_status_t kiln_em_from_elements(kiln_em_function_t* e,
                                           kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = e->m->ctx;
  const kiln_ir_type_t* tt = op->results[0].type;
  const kiln_ir_type_t* et = tt->shaped.element;
  int64_t width = (int64_t)kiln_ir_type_storage_bytes(et);
  if (!kiln_ir_type_has_static_shape(tt) ||
      (width != 1 && width != 2 && width != 4 && width != 8)) {
    return kiln_em_error(e, op,
                         "tensor.from_elements at host level needs a static "
                         "shape of 1..8-byte elements");
  }
  kiln_hstore_t* s = kiln_em_alloc_static(e, tt);
  if (!s) return kiln_ir_context_take_error(ctx);
  for (uint32_t i = 0; i < op->num_operands; ++i) {
    int bank = 0;
    uint32_t reg = 0;
    if (!kiln_em_host_scalar(e, kiln_ir_op_operand(op, i), &bank, &reg)) {
      return kiln_em_error(e, op,
                           "tensor.from_elements at host level takes "
                           "arguments and constants only");
    }
    // The element's bits in one or two i32 words.
    uint32_t words[2] = {reg, 0};
    if (bank == KILN_VM_BANK_F32) {
      words[0] = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
      kiln_asm_emit(e->f, "bitcast.f32.i32 %%i%u, %%f%u", words[0], reg);
    } else if (bank == KILN_VM_BANK_I64 || bank == KILN_VM_BANK_F64) {
      uint32_t bits = reg;
      if (bank == KILN_VM_BANK_F64) {
        bits = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
        kiln_asm_emit(e->f, "bitcast.f64.i64 %%l%u, %%d%u", bits, reg);
      }
      uint32_t hi64 = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
      words[0] = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
      words[1] = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
      kiln_asm_emit(e->f, "trunc.i64.i32 %%i%u, %%l%u", words[0], bits);
      kiln_asm_emit(e->f, "shr.u.i64 %%l%u, %%l%u, %%l%u", hi64, bits,
                    kiln_asm_const_i64(e->f, 32));
      kiln_asm_emit(e->f, "trunc.i64.i32 %%i%u, %%l%u", words[1], hi64);
    }
    for (int w = 0; w < (width == 8 ? 2 : 1); ++w) {
      kiln_asm_emit(e->f, "call.import @%s(%%i%u, %%r%u, %%l%u, %%i%u) -> ()",
                    kiln_import_name(e->m, KILN_IMPORT_BUFFER_STORE), words[w],
                    s->buffer,
                    kiln_asm_const_i64(e->f, (int64_t)i * width + 4 * w),
                    kiln_asm_const_i32(e->f, (int32_t)(width < 4 ? width : 4)));
    }
  }
  kiln_ptr_map_put(&e->storage, &op->results[0], s);
  return kiln_ok_status();
}

// The VM global holding mutable util.global |op|'s current value (a buffer
// view, null until first used), declared on first use.
static const char* kiln_em_state_global(kiln_em_function_t* e,
                                        kiln_ir_op_t* op) {
  kiln_em_module_t* m = e->m;
  const kiln_ir_attribute_t* ref = kiln_ir_op_get_attr(op, "global");
  kiln_string_view_t name = ref->symbol.root;
  char* g =
      kiln_ir_arena_printf(m->ctx, "__state_%.*s", (int)name.size, name.data);
  if (!g) return NULL;
  // VM symbols are identifiers: other characters become '_' (a suffix keeps
  // two such names apart: the name's length).
  bool changed = false;
  for (char* c = g; *c; ++c) {
    bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
              (*c >= '0' && *c <= '9') || *c == '_';
    if (!ok) *c = '_', changed = true;
  }
  if (changed) {
    g = kiln_ir_arena_printf(m->ctx, "%s_%zu", g, name.size);
    if (!g) return NULL;
  }
  char* line = kiln_ir_arena_printf(m->ctx, "global @%s : ref\n", g);
  if (!line) return NULL;
  if (!m->globals.data || !strstr(m->globals.data, line)) {
    kiln_ir_sb_printf(&m->globals, "%s", line);
  }
  return g;
}

// The storage behind buffer view register |view| of type |t| (an argument,
// a mutable global): its buffer and byte offset read at run time; NULL when
// out of memory.
static kiln_hstore_t* kiln_em_store_of_view(kiln_em_function_t* e,
                                            uint32_t view,
                                            const kiln_ir_type_t* t) {
  kiln_hstore_t* s = kiln_em_new_store(e);
  if (!s) return NULL;
  s->buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  s->offset = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  s->offset_known = false;
  s->length = kiln_tensor_bytes(t);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_VIEW_BUFFER), view,
                s->buffer);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> (%%l%u)",
                kiln_import_name(e->m, KILN_IMPORT_VIEW_BYTE_OFFSET), view,
                s->offset);
  return s;
}

// A dynamically shaped |v| held by buffer view register |view| (an
// argument, a mutable global): its dims are read from the view at run time
// and |s| (its storage) gets their byte length. Nothing when static.
static kiln_status_t kiln_em_view_dims(kiln_em_function_t* e,
                                       kiln_ir_op_t* user, uint32_t view,
                                       kiln_ir_value_t* v, kiln_hstore_t* s) {
  const kiln_ir_type_t* t = v->type;
  if (kiln_ir_type_has_static_shape(t)) return kiln_ok_status();
  uint32_t* regs = (uint32_t*)kiln_ir_arena_alloc(
      e->m->ctx, sizeof(uint32_t) * (t->shaped.rank + 1));
  if (!regs) return kiln_ir_context_take_error(e->m->ctx);
  for (size_t d = 0; d < t->shaped.rank; ++d) {
    if (t->shaped.dims[d] != KILN_IR_DYNAMIC_DIM) {
      regs[d] = kiln_asm_const_i64(e->f, t->shaped.dims[d]);
      continue;
    }
    regs[d] = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%i%u) -> (%%l%u)",
                  kiln_import_name(e->m, KILN_IMPORT_VIEW_DIM), view,
                  kiln_asm_const_i32(e->f, (int32_t)d), regs[d]);
  }
  kiln_ptr_map_put(&e->dims, v, regs);
  s->dyn_length = true;
  return kiln_em_dynamic_bytes(e, user, v, &s->length_reg);
}

// `util.global.load @g` of a mutable global: the VM global's view,
// initialized from the initial value (rodata) when still null, used like a
// function argument (its buffer and offset are only known at run time).
static kiln_status_t kiln_em_global_load(kiln_em_function_t* e,
                                         kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = e->m->ctx;
  const char* g = kiln_em_state_global(e, op);
  if (!g) return kiln_ir_context_take_error(ctx);
  const kiln_ir_type_t* t = op->results[0].type;
  const kiln_ir_attribute_t* init =
      kiln_ir_op_get_attr(op, "kiln.initial_value");
  uint32_t ordinal = 0;
  KILN_RETURN_IF_ERROR(kiln_em_constant_rodata(e->m, op, init, &ordinal));
  uint32_t ro = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  uint32_t ro_buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "rodata.ref %%r%u, @__rodata_%u", ro, ordinal);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%r%u) -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_BUFFER_WRAP_RODATA),
                e->device, ro, ro_buffer);
  // The initial value has a static shape (a dynamic global's too).
  kiln_hstore_t ro_store = {0};
  ro_store.buffer = ro_buffer;
  ro_store.offset = kiln_asm_const_i64(e->f, 0);
  ro_store.length = kiln_tensor_bytes(init->type);
  uint32_t init_view = 0;
  KILN_RETURN_IF_ERROR(
      kiln_em_view_of_store(e, op, &ro_store, init->type, &init_view));
  uint32_t view = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "global.store_if_null.ref %%r%u, @%s, %%r%u", view, g,
                init_view);
  kiln_hstore_t* s = kiln_em_store_of_view(e, view, t);
  if (!s) return kiln_ir_context_take_error(ctx);
  KILN_RETURN_IF_ERROR(kiln_em_view_dims(e, op, view, &op->results[0], s));
  kiln_ptr_map_put(&e->storage, &op->results[0], s);
  return kiln_ok_status();
}

static void kiln_em_execute_one_shot(kiln_em_function_t* e, uint32_t cb);
static void kiln_em_copy(kiln_em_function_t* e, uint32_t cb,
                         const kiln_hstore_t* src, uint32_t dst_buffer,
                         uint32_t dst_offset);
static void kiln_em_copy_bytes(kiln_em_function_t* e, uint32_t cb,
                               const kiln_hstore_t* src, uint32_t dst_buffer,
                               uint32_t dst_offset, uint32_t length);
static uint32_t kiln_em_one_shot_cb(kiln_em_function_t* e);

// `util.global.store %v, @g`: the pending work is submitted and awaited,
// %v is copied into a buffer of its own (its storage may be transient
// memory of this invocation) and the VM global takes a view of the copy.
static kiln_status_t kiln_em_global_store(kiln_em_function_t* e,
                                          kiln_ir_op_t* op) {
  kiln_ir_context_t* ctx = e->m->ctx;
  const char* g = kiln_em_state_global(e, op);
  if (!g) return kiln_ir_context_take_error(ctx);
  kiln_ir_value_t* v = kiln_ir_op_operand(op, 0);
  kiln_hstore_t* src = NULL;
  KILN_RETURN_IF_ERROR(kiln_em_storage(e, op, v, &src));
  kiln_em_submit(e, false);
  if (!kiln_ir_type_has_static_shape(v->type)) {
    // A run-time shape: a copy of its run-time bytes, and a view with its
    // run-time dims.
    uint32_t length = 0;
    KILN_RETURN_IF_ERROR(kiln_em_dynamic_bytes(e, op, v, &length));
    uint32_t buffer = kiln_em_allocate(e, length);
    uint32_t cb = kiln_em_one_shot_cb(e);
    kiln_em_copy_bytes(e, cb, src, buffer, kiln_asm_const_i64(e->f, 0), length);
    kiln_em_execute_one_shot(e, cb);
    kiln_hstore_t* copy = kiln_em_new_store(e);
    if (!copy) return kiln_ir_context_take_error(ctx);
    *copy = *src;
    copy->buffer = buffer;
    copy->offset = kiln_asm_const_i64(e->f, 0);
    copy->offset_known = true;
    copy->const_offset = 0;
    // kiln_em_view reads |v|'s storage: the copy's, for this view only.
    kiln_ptr_map_put(&e->storage, v, copy);
    uint32_t view = 0;
    kiln_status_t status = kiln_em_view(e, op, v, &view);
    kiln_ptr_map_put(&e->storage, v, src);
    KILN_RETURN_IF_ERROR(status);
    kiln_asm_emit(e->f, "global.store.ref @%s, %%r%u", g, view);
    return kiln_ok_status();
  }
  kiln_hstore_t* copy = kiln_em_alloc_static(e, v->type);
  if (!copy) return kiln_ir_context_take_error(ctx);
  if (copy->length > 0) {
    uint32_t cb = kiln_em_one_shot_cb(e);
    kiln_hstore_t from = *src;
    from.length = copy->length;
    kiln_em_copy(e, cb, &from, copy->buffer, copy->offset);
    kiln_em_execute_one_shot(e, cb);
  }
  uint32_t view = 0;
  KILN_RETURN_IF_ERROR(kiln_em_view_of_store(e, op, copy, v->type, &view));
  kiln_asm_emit(e->f, "global.store.ref @%s, %%r%u", g, view);
  return kiln_ok_status();
}

// Executes a one-shot command buffer of copies and waits for it.
static void kiln_em_execute_one_shot(kiln_em_function_t* e, uint32_t cb) {
  kiln_em_module_t* m = e->m;
  kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> ()",
                kiln_import_name(m, KILN_IMPORT_CB_FINALIZE), cb);
  uint32_t wait = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "const.ref.null %%r%u", wait);
  uint32_t fence = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> (%%r%u)",
                kiln_import_name(m, KILN_IMPORT_FENCE_CREATE), e->device,
                fence);
  kiln_asm_emit(e->f,
                "call.import @%s(%%r%u, %%r%u, %%r%u, %%r%u, %%i%u) -> ()",
                kiln_import_name(m, KILN_IMPORT_QUEUE_EXECUTE), e->device, wait,
                fence, cb, kiln_asm_const_i32(e->f, 0));
  uint32_t st = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
  kiln_asm_emit(e->f, "call.import @%s(%%l%u, %%r%u) -> (%%i%u)",
                kiln_import_name(m, KILN_IMPORT_FENCE_AWAIT),
                kiln_asm_const_i64(e->f, -1), fence, st);
  uint32_t fail = kiln_asm_label(e->f), ok = kiln_asm_label(e->f);
  kiln_asm_emit(e->f, "br.cond %%i%u, ^L%u, ^L%u", st, fail, ok);
  kiln_asm_place_label(e->f, fail);
  kiln_asm_emit(e->f, "fail %%i%u, \"device work failed\"", st);
  kiln_asm_place_label(e->f, ok);
}

// Records a copy of |length| bytes (an i64 register) from |src| into
// |cb|.
static void kiln_em_copy_bytes(kiln_em_function_t* e, uint32_t cb,
                               const kiln_hstore_t* src, uint32_t dst_buffer,
                               uint32_t dst_offset, uint32_t length) {
  kiln_asm_emit(
      e->f, "call.import @%s(%%r%u, %%r%u, %%l%u, %%r%u, %%l%u, %%l%u) -> ()",
      kiln_import_name(e->m, KILN_IMPORT_CB_COPY), cb, src->buffer, src->offset,
      dst_buffer, dst_offset, length);
}

// A copy of |src|'s static length.
static void kiln_em_copy(kiln_em_function_t* e, uint32_t cb,
                         const kiln_hstore_t* src, uint32_t dst_buffer,
                         uint32_t dst_offset) {
  kiln_em_copy_bytes(e, cb, src, dst_buffer, dst_offset,
                     kiln_asm_const_i64(e->f, src->length));
}

// A one-shot command buffer for copies (no binding slots); returns its
// register.
static uint32_t kiln_em_one_shot_cb(kiln_em_function_t* e) {
  uint32_t cb = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%i%u, %%i%u) -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_CB_CREATE), e->device,
                kiln_asm_const_i32(e->f, 1), kiln_asm_const_i32(e->f, 0), cb);
  return cb;
}

// The edge to successor |index| of branch |op|: copies the successor
// operands into the target block's argument buffers (through staging
// buffers when a source is itself one of the target's arguments, e.g. a
// swap), then jumps to the block's label.
static kiln_status_t kiln_em_branch_edge(kiln_em_function_t* e,
                                         kiln_ir_op_t* op, uint32_t index) {
  const kiln_ir_successor_t* succ = &op->successors[index];
  kiln_ir_block_t* block = succ->block;
  uint32_t label =
      (uint32_t)(uintptr_t)kiln_ptr_map_get(&e->block_labels, block);
  if (!label) return kiln_em_error(e, op, "branch to an unknown block");
  kiln_hstore_t* srcs[64];
  kiln_hstore_t* dsts[64];
  if (succ->num_operands > 64) {
    return kiln_em_error(e, op, "too many block arguments");
  }
  // Constants first materialized on this edge exist only on this path:
  // forgotten after it, so the other edge of a cond_br makes its own.
  size_t consts_mark = e->num_block_consts;
  bool any = false, stage = false;
  // Register-carried arguments (scalars, run-time shaped tensors): the new
  // values go to temporaries first and into the argument registers after
  // every source was read (a source may be another argument: a swap).
  uint32_t num_moves = 0;
  struct {
    int bank;
    uint32_t from, to;
  } moves[4 * 64];
  uint32_t cb = UINT32_MAX;
  for (uint32_t j = 0; j < succ->num_operands; ++j) {
    kiln_ir_value_t* from = kiln_ir_op_operand(op, succ->operand_start + j);
    kiln_ir_value_t* arg = block->args[j];
    const kiln_ir_type_t* t = arg->type;
    srcs[j] = dsts[j] = NULL;
    if (kiln_em_is_util_buffer(t)) {
      const kiln_em_bview_t* dst =
          (const kiln_em_bview_t*)kiln_ptr_map_get(&e->buffer_views, arg);
      kiln_em_bview_t src;
      KILN_RETURN_IF_ERROR(kiln_em_buffer_view(e, op, from, &src));
      if (!dst || num_moves + 3 > sizeof(moves) / sizeof(moves[0])) {
        return kiln_em_error(e, op, "too many !util.buffer block operands");
      }
      const uint32_t values[3] = {
          src.base, src.view ? src.offset : kiln_asm_const_i64(e->f, 0),
          kiln_em_bview_length(e, &src)};
      const uint32_t targets[3] = {dst->base, dst->offset, dst->length};
      const int banks[3] = {KILN_VM_BANK_REF, KILN_VM_BANK_I64,
                            KILN_VM_BANK_I64};
      for (int k = 0; k < 3; ++k) {
        uint32_t tmp = kiln_asm_reg(e->f, banks[k]);
        kiln_asm_emit(e->f, "mov.%s %%%c%u, %%%c%u",
                      kiln_vm_bank_suffix(banks[k]),
                      kiln_vm_bank_prefix(banks[k]), tmp,
                      kiln_vm_bank_prefix(banks[k]), values[k]);
        moves[num_moves].bank = banks[k];
        moves[num_moves].from = tmp;
        moves[num_moves++].to = targets[k];
      }
      continue;
    }
    if (!kiln_ir_type_is_shaped(t)) {
      int bank = 0, dst_bank = 0;
      uint32_t reg = 0, dst = 0;
      if (!kiln_em_host_scalar(e, from, &bank, &reg) ||
          !kiln_em_host_scalar(e, arg, &dst_bank, &dst) || bank != dst_bank) {
        return kiln_em_error(e, op,
                             "a scalar block operand not computed at host "
                             "level");
      }
      uint32_t tmp = kiln_asm_reg(e->f, bank);
      kiln_asm_emit(e->f, "mov.%s %%%c%u, %%%c%u", kiln_vm_bank_suffix(bank),
                    kiln_vm_bank_prefix(bank), tmp, kiln_vm_bank_prefix(bank),
                    reg);
      moves[num_moves].bank = bank;
      moves[num_moves].from = tmp;
      moves[num_moves++].to = dst;
      continue;
    }
    if (kiln_ir_type_has_static_shape(t)) continue;
    if (num_moves + t->shaped.rank + 2 > sizeof(moves) / sizeof(moves[0])) {
      return kiln_em_error(e, op, "too many run-time block operand dims");
    }
    kiln_hstore_t *src = NULL, *dst = NULL;
    KILN_RETURN_IF_ERROR(kiln_em_storage(e, op, from, &src));
    KILN_RETURN_IF_ERROR(kiln_em_storage(e, op, arg, &dst));
    uint32_t* dims = (uint32_t*)kiln_ptr_map_get(&e->dims, arg);
    uint32_t length = 0;
    KILN_RETURN_IF_ERROR(kiln_em_dynamic_bytes(e, op, from, &length));
    for (size_t d = 0; d < t->shaped.rank; ++d) {
      uint32_t r = 0;
      KILN_RETURN_IF_ERROR(kiln_em_dim(e, op, from, d, &r));
      uint32_t tmp = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
      kiln_asm_emit(e->f, "mov.i64 %%l%u, %%l%u", tmp, r);
      moves[num_moves].bank = KILN_VM_BANK_I64;
      moves[num_moves].from = tmp;
      moves[num_moves++].to = dims[d];
    }
    if (cb == UINT32_MAX) {
      kiln_em_submit(e, false);
      cb = kiln_em_one_shot_cb(e);
    }
    uint32_t buffer = kiln_em_allocate(e, length);
    kiln_em_copy_bytes(e, cb, src, buffer, kiln_asm_const_i64(e->f, 0), length);
    moves[num_moves].bank = KILN_VM_BANK_REF;
    moves[num_moves].from = buffer;
    moves[num_moves++].to = dst->buffer;
    moves[num_moves].bank = KILN_VM_BANK_I64;
    moves[num_moves].from = length;
    moves[num_moves++].to = dst->length_reg;
  }
  if (cb != UINT32_MAX) kiln_em_execute_one_shot(e, cb);
  for (uint32_t j = 0; j < succ->num_operands; ++j) {
    const kiln_ir_type_t* t = block->args[j]->type;
    if (!kiln_ir_type_is_shaped(t) || !kiln_ir_type_has_static_shape(t)) {
      continue;
    }
    KILN_RETURN_IF_ERROR(kiln_em_storage(
        e, op, kiln_ir_op_operand(op, succ->operand_start + j), &srcs[j]));
    KILN_RETURN_IF_ERROR(kiln_em_storage(e, op, block->args[j], &dsts[j]));
    if (srcs[j] == dsts[j] || srcs[j]->length <= 0) continue;
    any = true;
    for (uint32_t k = 0; k < succ->num_operands; ++k) {
      const kiln_ir_type_t* tk = block->args[k]->type;
      if (!kiln_ir_type_is_shaped(tk) || !kiln_ir_type_has_static_shape(tk)) {
        continue;
      }
      kiln_hstore_t* dk = NULL;
      KILN_RETURN_IF_ERROR(kiln_em_storage(e, op, block->args[k], &dk));
      if (k != j && dk->buffer == srcs[j]->buffer) stage = true;
    }
  }
  if (any) {
    uint32_t cb = kiln_em_one_shot_cb(e);
    uint32_t staged[64];
    for (uint32_t j = 0; j < succ->num_operands && stage; ++j) {
      if (!srcs[j] || srcs[j] == dsts[j] || srcs[j]->length <= 0) continue;
      staged[j] = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
      kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%l%u) -> (%%r%u)",
                    kiln_import_name(e->m, KILN_IMPORT_BUFFER_ALLOCATE),
                    e->device, kiln_asm_const_i64(e->f, srcs[j]->length),
                    staged[j]);
      kiln_em_copy(e, cb, srcs[j], staged[j], kiln_asm_const_i64(e->f, 0));
    }
    if (stage) {
      kiln_asm_emit(e->f, "call.import @%s(%%r%u) -> ()",
                    kiln_import_name(e->m, KILN_IMPORT_CB_BARRIER), cb);
    }
    for (uint32_t j = 0; j < succ->num_operands; ++j) {
      if (!srcs[j] || srcs[j] == dsts[j] || srcs[j]->length <= 0) continue;
      kiln_hstore_t staged_store = *srcs[j];
      if (stage) {
        staged_store.buffer = staged[j];
        staged_store.offset = kiln_asm_const_i64(e->f, 0);
      }
      kiln_em_copy(e, cb, &staged_store, dsts[j]->buffer, dsts[j]->offset);
    }
    kiln_em_execute_one_shot(e, cb);
  }
  for (uint32_t i = 0; i < num_moves; ++i) {
    int bank = moves[i].bank;
    kiln_asm_emit(e->f, "mov.%s %%%c%u, %%%c%u", kiln_vm_bank_suffix(bank),
                  kiln_vm_bank_prefix(bank), moves[i].to,
                  kiln_vm_bank_prefix(bank), moves[i].from);
  }
  for (size_t i = consts_mark; i < e->num_block_consts; ++i) {
    kiln_ptr_map_put(&e->storage, e->block_consts[i], NULL);
  }
  e->num_block_consts = consts_mark;
  kiln_asm_emit(e->f, "br ^L%u", label - 1);
  return kiln_ok_status();
}

// The offset in |b|'s buffer (an i64 register) of the bytes [|offset|,
// |offset| + |length|) of |b| (i64 registers). Through a subspan view the
// call fails unless they lie in the view (|what| names the op, |outside|
// what they would be outside of); the VM checks whole buffers itself.
static uint32_t kiln_em_bview_range_of(kiln_em_function_t* e,
                                       const kiln_em_bview_t* b,
                                       uint32_t offset, uint32_t length,
                                       const char* what, const char* outside) {
  if (!b->view) return offset;
  // offset <= size and length <= size - offset, unsigned: a negative
  // offset or length is out of range too.
  uint32_t in = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
  uint32_t fits = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
  uint32_t rest = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  kiln_asm_emit(e->f, "cmp.le.u.i64 %%i%u, %%l%u, %%l%u", in, offset,
                b->length);
  kiln_asm_emit(e->f, "sub.i64 %%l%u, %%l%u, %%l%u", rest, b->length, offset);
  kiln_asm_emit(e->f, "cmp.le.u.i64 %%i%u, %%l%u, %%l%u", fits, length, rest);
  kiln_asm_emit(e->f, "and.i32 %%i%u, %%i%u, %%i%u", in, in, fits);
  char msg[160];
  snprintf(msg, sizeof(msg), "%s: the byte range is outside %s", what, outside);
  kiln_em_fail_unless(e, in, msg, strlen(msg));
  uint32_t at = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  kiln_asm_emit(e->f, "add.i64 %%l%u, %%l%u, %%l%u", at, b->offset, offset);
  return at;
}

// kiln_em_bview_range_of for an access through a subspan.
static uint32_t kiln_em_bview_range(kiln_em_function_t* e,
                                    const kiln_em_bview_t* b, uint32_t offset,
                                    uint32_t length, const char* what) {
  return kiln_em_bview_range_of(
      e, b, offset, length, what,
      b->block_arg ? "the bytes of its !util.buffer block argument"
                   : "its util.buffer.subspan");
}

// util.buffer.subspan: a view of bytes [offset, offset + length) of its
// source (checked to lie in it at run time; a view of a view composes).
static kiln_status_t kiln_em_buffer_subspan(kiln_em_function_t* e,
                                            kiln_ir_op_t* op) {
  kiln_em_bview_t src;
  KILN_RETURN_IF_ERROR(
      kiln_em_buffer_view(e, op, kiln_ir_op_operand(op, 0), &src));
  uint32_t offset = 0, length = 0;
  KILN_RETURN_IF_ERROR(
      kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 2), &offset));
  KILN_RETURN_IF_ERROR(
      kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 3), &length));
  kiln_em_bview_t whole = src;
  if (!whole.view) {
    whole.view = true;
    whole.offset = kiln_asm_const_i64(e->f, 0);
    whole.length = kiln_em_bview_length(e, &src);
  }
  kiln_em_bview_t* view =
      (kiln_em_bview_t*)kiln_ir_arena_alloc(e->m->ctx, sizeof(*view));
  if (!view) return kiln_ir_context_take_error(e->m->ctx);
  view->base = src.base;
  view->view = true;
  view->block_arg = false;
  view->offset = kiln_em_bview_range_of(
      e, &whole, offset, length, "util.buffer.subspan",
      src.view ? "its source subspan" : "its source buffer");
  view->length = length;
  kiln_ptr_map_put(&e->buffer_views, &op->results[0], view);
  return kiln_ok_status();
}

// The element index (i64 register) of a |width|-byte scalar at byte
// |offset| (an IR value) of |b|, which must be a multiple of |width| in
// the buffer (a run-time check naming |what|; the VM checks the range).
static kiln_status_t kiln_em_buffer_index(kiln_em_function_t* e,
                                          kiln_ir_op_t* op,
                                          const kiln_em_bview_t* b,
                                          kiln_ir_value_t* v, int64_t width,
                                          const char* what, uint32_t* out) {
  uint32_t offset = 0;
  KILN_RETURN_IF_ERROR(kiln_em_scalar_i64(e, op, v, &offset));
  offset =
      kiln_em_bview_range(e, b, offset, kiln_asm_const_i64(e->f, width), what);
  uint32_t rem = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  uint32_t aligned = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
  kiln_asm_emit(e->f, "rem.u.i64 %%l%u, %%l%u, %%l%u", rem, offset,
                kiln_asm_const_i64(e->f, width));
  kiln_asm_emit(e->f, "cmp.eq.i64 %%i%u, %%l%u, %%l%u", aligned, rem,
                kiln_asm_const_i64(e->f, 0));
  char msg[160];
  snprintf(msg, sizeof(msg), "%s: the byte offset is not a multiple of %lld",
           what, (long long)width);
  kiln_em_fail_unless(e, aligned, msg, strlen(msg));
  *out = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
  kiln_asm_emit(e->f, "div.u.i64 %%l%u, %%l%u, %%l%u", *out, offset,
                kiln_asm_const_i64(e->f, width));
  return kiln_ok_status();
}

// util.buffer.store %v: buffer.store.<width> of its host register (an i32
// register for the widths up to 4 bytes, the VM truncating).
static kiln_status_t kiln_em_util_buffer_store(kiln_em_function_t* e,
                                               kiln_ir_op_t* op,
                                               const kiln_em_bview_t* b) {
  uint32_t buffer = b->base;
  kiln_ir_value_t* value = kiln_ir_op_operand(op, 0);
  const kiln_ir_type_t* t = value->type;
  int64_t width = (int64_t)kiln_ir_type_storage_bytes(t);
  int bank = 0;
  uint32_t reg = 0;
  if (!kiln_em_host_scalar(e, value, &bank, &reg) || bank == KILN_VM_BANK_REF) {
    return kiln_em_error(e, op,
                         "the stored value is not computed at host level");
  }
  if (width == 8 && bank == KILN_VM_BANK_I32) {
    // An index or i64 kept in an i32 register (a constant).
    KILN_RETURN_IF_ERROR(kiln_em_scalar_i64(e, op, value, &reg));
    bank = KILN_VM_BANK_I64;
  }
  uint32_t index = 0;
  KILN_RETURN_IF_ERROR(kiln_em_buffer_index(
      e, op, b, kiln_ir_op_operand(op, 3), width, "util.buffer.store", &index));
  static const char* const kInt[] = {"", "i8", "i16", "",   "i32",
                                     "", "",   "",    "i64"};
  const char* suffix = bank == KILN_VM_BANK_F32   ? "f32"
                       : bank == KILN_VM_BANK_F64 ? "f64"
                                                  : kInt[width];
  char p = "ilfd"[bank];  // the register prefix of banks I32..F64
  kiln_asm_emit(e->f, "buffer.store.%s %%r%u, %%l%u, %%%c%u", suffix, buffer,
                index, p, reg);
  return kiln_ok_status();
}

// A new ref register holding the !util.buffer |result|.
static uint32_t kiln_em_buffer_result(kiln_em_function_t* e,
                                      kiln_ir_value_t* result) {
  uint32_t reg = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_ptr_map_put(&e->host_scalars, result,
                   kiln_em_pack(KILN_VM_BANK_REF, reg));
  return reg;
}

// util.buffer.constant / size / load / alloc / store / fill / copy at host
// level: a constant buffer is the VM buffer of its rodata entry (a string's
// bytes or a dense value's, read-only), an allocation a new zero-filled VM
// buffer, a size that buffer's length; a load or store moves one scalar at
// a byte offset that must be a multiple of the scalar's size; the VM checks
// every range.
static kiln_status_t kiln_em_util_buffer(kiln_em_function_t* e,
                                         kiln_ir_op_t* op) {
  kiln_ir_value_t* result = op->num_results ? &op->results[0] : NULL;
  if (kiln_ir_op_is(op, "util.buffer.constant")) {
    const kiln_ir_attribute_t* value = kiln_ir_op_get_attr(op, "value");
    uint32_t ordinal = 0;
    if (value->kind == KILN_IR_ATTR_STRING) {
      ordinal = kiln_em_bytes_rodata(e->m, value->str.data, value->str.size);
    } else {
      KILN_RETURN_IF_ERROR(kiln_em_constant_rodata(e->m, op, value, &ordinal));
    }
    kiln_asm_emit(e->f, "rodata.ref %%r%u, @__rodata_%u",
                  kiln_em_buffer_result(e, result), ordinal);
    return kiln_ok_status();
  }
  if (kiln_ir_op_is(op, "util.buffer.alloc")) {
    uint32_t size = 0;
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 0), &size));
    kiln_asm_emit(e->f, "buffer.alloc %%r%u, %%l%u",
                  kiln_em_buffer_result(e, result), size);
    return kiln_ok_status();
  }
  if (kiln_ir_op_is(op, "util.buffer.subspan")) {
    return kiln_em_buffer_subspan(e, op);
  }
  if (kiln_ir_op_is(op, "util.buffer.copy")) {
    kiln_em_bview_t src, dst;
    uint32_t src_off = 0, dst_off = 0, length = 0;
    KILN_RETURN_IF_ERROR(
        kiln_em_buffer_view(e, op, kiln_ir_op_operand(op, 0), &src));
    KILN_RETURN_IF_ERROR(
        kiln_em_buffer_view(e, op, kiln_ir_op_operand(op, 3), &dst));
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 2), &src_off));
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 5), &dst_off));
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 6), &length));
    src_off = kiln_em_bview_range(e, &src, src_off, length, "util.buffer.copy");
    dst_off = kiln_em_bview_range(e, &dst, dst_off, length, "util.buffer.copy");
    kiln_asm_emit(e->f, "buffer.copy %%r%u, %%l%u, %%r%u, %%l%u, %%l%u",
                  src.base, src_off, dst.base, dst_off, length);
    return kiln_ok_status();
  }
  bool value_first = kiln_ir_op_is(op, "util.buffer.store") ||
                     kiln_ir_op_is(op, "util.buffer.fill");
  kiln_em_bview_t b;
  KILN_RETURN_IF_ERROR(kiln_em_buffer_view(
      e, op, kiln_ir_op_operand(op, value_first ? 1 : 0), &b));
  uint32_t buffer = b.base;
  if (kiln_ir_op_is(op, "util.buffer.size")) {
    kiln_ptr_map_put(
        &e->host_scalars, result,
        kiln_em_pack(KILN_VM_BANK_I64, kiln_em_bview_length(e, &b)));
    return kiln_ok_status();
  }
  if (kiln_ir_op_is(op, "util.buffer.store")) {
    return kiln_em_util_buffer_store(e, op, &b);
  }
  if (kiln_ir_op_is(op, "util.buffer.fill")) {
    int bank = 0;
    uint32_t pattern = 0, offset = 0, length = 0;
    if (!kiln_em_host_scalar(e, kiln_ir_op_operand(op, 0), &bank, &pattern) ||
        bank != KILN_VM_BANK_I32) {
      return kiln_em_error(e, op,
                           "the fill pattern is not computed at host level");
    }
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 3), &offset));
    KILN_RETURN_IF_ERROR(
        kiln_em_scalar_i64(e, op, kiln_ir_op_operand(op, 4), &length));
    offset = kiln_em_bview_range(e, &b, offset, length, "util.buffer.fill");
    kiln_asm_emit(e->f, "buffer.fill.i8 %%r%u, %%l%u, %%l%u, %%i%u", buffer,
                  offset, length, pattern);
    return kiln_ok_status();
  }
  const kiln_ir_type_t* t = result->type;
  int64_t width = (int64_t)kiln_ir_type_storage_bytes(t);
  uint32_t index = 0;
  KILN_RETURN_IF_ERROR(kiln_em_buffer_index(
      e, op, &b, kiln_ir_op_operand(op, 2), width, "util.buffer.load", &index));
  bool is_float = kiln_ir_type_is_float(t);
  bool is_unsigned =
      kiln_ir_type_is_integer(t) && t->integer.signedness == KILN_IR_UNSIGNED;
  const char* mnemonic = NULL;
  int rb = KILN_VM_BANK_I32;
  switch (width) {
    case 1:
      mnemonic = is_unsigned ? "buffer.load.i8.u" : "buffer.load.i8.s";
      break;
    case 2:
      mnemonic = is_unsigned ? "buffer.load.i16.u" : "buffer.load.i16.s";
      break;
    case 4:
      mnemonic = is_float ? "buffer.load.f32" : "buffer.load.i32";
      rb = is_float ? KILN_VM_BANK_F32 : KILN_VM_BANK_I32;
      break;
    default:
      mnemonic = is_float ? "buffer.load.f64" : "buffer.load.i64";
      rb = is_float ? KILN_VM_BANK_F64 : KILN_VM_BANK_I64;
      break;
  }
  uint32_t reg = kiln_asm_reg(e->f, rb);
  char p = "ilfd"[rb];  // the register prefix of banks I32..F64
  kiln_asm_emit(e->f, "%s %%%c%u, %%r%u, %%l%u", mnemonic, p, reg, buffer,
                index);
  if (rb == KILN_VM_BANK_I32) {
    kiln_ptr_map_put(&e->scalars, result, (void*)(uintptr_t)(reg + 1));
  }
  kiln_ptr_map_put(&e->host_scalars, result, kiln_em_pack(rb, reg));
  return kiln_ok_status();
}

// cf.br / cf.cond_br: all recorded work is submitted and awaited first.
static kiln_status_t kiln_em_branch(kiln_em_function_t* e, kiln_ir_op_t* op) {
  kiln_em_submit(e, false);
  if (kiln_ir_op_is(op, "cf.br")) return kiln_em_branch_edge(e, op, 0);
  uint32_t cond = (uint32_t)(uintptr_t)kiln_ptr_map_get(
      &e->scalars, kiln_ir_op_operand(op, 0));
  int bank = 0;
  uint32_t reg = 0;
  if (!cond && kiln_em_host_scalar(e, kiln_ir_op_operand(op, 0), &bank, &reg) &&
      bank == KILN_VM_BANK_I32) {
    cond = reg + 1;  // an i1 computed at host level (arith.cmpi)
  }
  if (!cond) {
    return kiln_em_error(e, op,
                         "the branch condition is not a scalar read back "
                         "from device data (tensor.extract) or computed at "
                         "host level");
  }
  uint32_t t = kiln_asm_label(e->f), f = kiln_asm_label(e->f);
  kiln_asm_emit(e->f, "br.cond %%i%u, ^L%u, ^L%u", cond - 1, t, f);
  kiln_asm_place_label(e->f, t);
  KILN_RETURN_IF_ERROR(kiln_em_branch_edge(e, op, 0));
  kiln_asm_place_label(e->f, f);
  return kiln_em_branch_edge(e, op, 1);
}

// cf.assert %c, "msg": `fail` with INVALID_ARGUMENT (a run-time check of
// the inputs) when %c, read back at host level or a constant, is false.
// Pending work stays recorded: the failing path abandons it with the frame.
static kiln_status_t kiln_em_assert(kiln_em_function_t* e, kiln_ir_op_t* op) {
  int bank = 0;
  uint32_t cond = 0;
  if (!kiln_em_host_scalar(e, kiln_ir_op_operand(op, 0), &bank, &cond) ||
      bank != KILN_VM_BANK_I32) {
    return kiln_em_error(e, op,
                         "the assertion condition is not a scalar read back "
                         "from device data (tensor.extract)");
  }
  const kiln_ir_attribute_t* msg = kiln_ir_op_get_attr(op, "msg");
  kiln_em_fail_unless(e, cond, msg->str.data, msg->str.size);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

// Whether |call| calls a func.func declaration of the module (a function
// of another module); *out_callee receives its name.
static bool kiln_em_external_callee(kiln_em_function_t* e, kiln_ir_op_t* call,
                                    kiln_string_view_t* out_callee) {
  const kiln_ir_attribute_t* callee = kiln_ir_op_get_attr(call, "callee");
  if (!callee || callee->kind != KILN_IR_ATTR_SYMBOL_REF) return false;
  kiln_ir_op_t* module = kiln_ir_op_parent_op(e->func);
  kiln_ir_op_t* target =
      module ? kiln_ir_symbol_lookup(module, callee->symbol.root) : NULL;
  if (!target || !kiln_ir_func_is_declaration(target)) return false;
  // Only "module.function" names another module's export; any other
  // declaration stays an unsupported host op (reported with its location).
  if (!memchr(callee->symbol.root.data, '.', callee->symbol.root.size)) {
    return false;
  }
  *out_callee = callee->symbol.root;
  return true;
}

static kiln_status_t kiln_em_function_body(kiln_em_function_t* e) {
  kiln_ir_context_t* ctx = e->m->ctx;
  kiln_string_view_t callee = kiln_string_view_empty();
  kiln_ir_op_t* func = e->func;
  kiln_ir_block_t* entry = kiln_ir_func_entry_block(func);
  e->device = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  kiln_asm_emit(e->f, "call.import @%s() -> (%%r%u)",
                kiln_import_name(e->m, KILN_IMPORT_DEVICE_DEFAULT), e->device);
  // Arguments: registers numbered per bank in argument order (scalars in
  // i32/i64/f32/f64 registers, tensors as buffer views in refs).
  uint32_t next_arg_reg[KILN_VM_BANK_COUNT] = {0};
  for (uint32_t ai = 0; ai < entry->num_args; ++ai) {
    kiln_ir_value_t* arg = entry->args[ai];
    const kiln_ir_type_t* t = arg->type;
    char abi = kiln_em_abi_char(t);
    if (abi == '?') {
      return kiln_em_error(e, func,
                           "only ranked tensor and i1..i64/index/f32/f64 "
                           "arguments are supported");
    }
    if (abi != 'r' && !kiln_ir_type_is_shaped(t)) {
      int bank = kiln_vm_bank_of_type_char(abi);
      kiln_ptr_map_put(&e->host_scalars, arg,
                       kiln_em_pack(bank, next_arg_reg[bank]++));
      continue;
    }
    uint32_t i = next_arg_reg[KILN_VM_BANK_REF]++;
    if (kiln_em_is_util_buffer(t)) {
      // A whole VM buffer from the caller; its ops check at run time that
      // the ref is one.
      kiln_ptr_map_put(&e->host_scalars, arg,
                       kiln_em_pack(KILN_VM_BANK_REF, i));
      continue;
    }
    if (!kiln_ir_type_is_ranked_tensor(t)) {
      return kiln_em_error(e, func,
                           "only ranked tensor, !util.buffer and "
                           "i1..i64/index/f32/f64 arguments are supported");
    }
    uint32_t et = kiln_hal_element_type(t->shaped.element);
    if (!et) return kiln_em_error(e, func, "unsupported argument element type");
    // The label names the function, the argument and, when the input gave
    // one (arg attribute kiln.name: an ONNX graph input's name), its name, so
    // that a caller's wrong shape or type is an error it can act on.
    kiln_string_view_t fn = kiln_ir_symbol_name(func);
    const kiln_ir_attribute_t* arg_name =
        kiln_ir_dictionary_get(kiln_ir_func_arg_attrs(func, ai), "kiln.name");
    char label[160];
    if (arg_name && arg_name->kind == KILN_IR_ATTR_STRING) {
      snprintf(label, sizeof(label), "@%.*s input %u '%.*s'", (int)fn.size,
               fn.data, ai, (int)arg_name->str.size, arg_name->str.data);
    } else {
      snprintf(label, sizeof(label), "@%.*s input %u", (int)fn.size, fn.data,
               ai);
    }
    uint32_t name_ro = kiln_em_string_rodata(e->m, label);
    uint32_t name = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
    kiln_asm_emit(e->f, "rodata.ref %%r%u, @__rodata_%u", name, name_ro);
    char dims[512];
    int n = 0;
    dims[0] = 0;
    for (size_t d = 0; d < t->shaped.rank && n < (int)sizeof(dims) - 32; ++d) {
      // -1: any size (a dynamic dim).
      int64_t dim =
          t->shaped.dims[d] == KILN_IR_DYNAMIC_DIM ? -1 : t->shaped.dims[d];
      n += snprintf(dims + n, sizeof(dims) - (size_t)n, ", %%l%u",
                    kiln_asm_const_i64(e->f, dim));
    }
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%r%u, %%i%u, %%i%u%s) -> ()",
                  kiln_import_name(e->m, KILN_IMPORT_VIEW_ASSERT), i, name,
                  kiln_asm_const_i32(e->f, (int32_t)et),
                  kiln_asm_const_i32(e->f, 1), dims);
    kiln_hstore_t* s = kiln_em_store_of_view(e, i, t);
    if (!s) return kiln_ir_context_take_error(ctx);
    KILN_RETURN_IF_ERROR(kiln_em_view_dims(e, func, i, arg, s));
    kiln_ptr_map_put(&e->storage, arg, s);
  }
  // The transient allocation.
  const kiln_ir_attribute_t* ts =
      kiln_ir_op_get_attr(func, "kiln.transient_size");
  int64_t transient_size = ts && ts->kind == KILN_IR_ATTR_INTEGER ? ts->i : 0;
  e->transient_size = transient_size;
  e->transient = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
  if (transient_size > 0) {
    kiln_asm_emit(e->f, "call.import @%s(%%r%u, %%l%u) -> (%%r%u)",
                  kiln_import_name(e->m, KILN_IMPORT_BUFFER_ALLOCATE),
                  e->device, kiln_asm_const_i64(e->f, transient_size),
                  e->transient);
  }
  // Host control flow: a label and per-invocation argument buffers for
  // every other block. An async function waits for its wait fence up front
  // (which path submits first is only known at run time).
  for (kiln_ir_block_t* b = entry->next; b; b = b->next) {
    kiln_ptr_map_put(&e->block_labels, b,
                     (void*)(uintptr_t)(kiln_asm_label(e->f) + 1));
    for (uint32_t i = 0; i < b->num_args; ++i) {
      kiln_ir_value_t* arg = b->args[i];
      const kiln_ir_type_t* t = arg->type;
      char abi = kiln_em_abi_char(t);
      if (abi != 'r' && abi != '?' && !kiln_ir_type_is_shaped(t)) {
        // A scalar: a register of its bank, set on every edge.
        int bank = kiln_vm_bank_of_type_char(abi);
        kiln_ptr_map_put(&e->host_scalars, arg,
                         kiln_em_pack(bank, kiln_asm_reg(e->f, bank)));
        continue;
      }
      if (kiln_em_is_util_buffer(t)) {
        // A !util.buffer: a view (buffer, byte offset, byte length) in
        // registers that every edge sets; a whole buffer arrives as the view
        // of all its bytes, so accesses are checked as the VM would.
        kiln_em_bview_t* view =
            (kiln_em_bview_t*)kiln_ir_arena_alloc(ctx, sizeof(*view));
        if (!view) return kiln_ir_context_take_error(ctx);
        view->base = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
        view->view = true;
        view->offset = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
        view->length = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
        view->block_arg = true;
        kiln_ptr_map_put(&e->buffer_views, arg, view);
        continue;
      }
      if (!kiln_ir_type_is_ranked_tensor(t)) {
        return kiln_em_error(e, func,
                             "block arguments must be ranked tensors, "
                             "!util.buffer or scalars");
      }
      if (!kiln_ir_type_has_static_shape(t)) {
        // A run-time shape: each edge gives it a buffer of its own (a copy)
        // and sets its byte length and dims registers.
        kiln_hstore_t* s = kiln_em_new_store(e);
        uint32_t* dims = (uint32_t*)kiln_ir_arena_alloc(
            ctx, sizeof(uint32_t) * (t->shaped.rank ? t->shaped.rank : 1));
        if (!s || !dims) return kiln_ir_context_take_error(ctx);
        s->buffer = kiln_asm_reg(e->f, KILN_VM_BANK_REF);
        s->offset = kiln_asm_const_i64(e->f, 0);
        s->offset_known = true;
        s->const_offset = 0;
        s->dyn_length = true;
        s->length_reg = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
        for (size_t j = 0; j < t->shaped.rank; ++j) {
          dims[j] = kiln_asm_reg(e->f, KILN_VM_BANK_I64);
        }
        kiln_ptr_map_put(&e->dims, arg, dims);
        kiln_ptr_map_put(&e->storage, arg, s);
        continue;
      }
      kiln_hstore_t* s = kiln_em_alloc_static(e, t);
      if (!s) return kiln_ir_context_take_error(ctx);
      kiln_ptr_map_put(&e->storage, b->args[i], s);
    }
  }
  if (entry->next && e->is_async) {
    uint32_t st = kiln_asm_reg(e->f, KILN_VM_BANK_I32);
    kiln_asm_emit(e->f, "call.import @%s(%%l%u, %%r%u) -> (%%i%u)",
                  kiln_import_name(e->m, KILN_IMPORT_FENCE_AWAIT),
                  kiln_asm_const_i64(e->f, -1), e->wait_fence, st);
    uint32_t fail = kiln_asm_label(e->f), ok = kiln_asm_label(e->f);
    kiln_asm_emit(e->f, "br.cond %%i%u, ^L%u, ^L%u", st, fail, ok);
    kiln_asm_place_label(e->f, fail);
    kiln_asm_emit(e->f, "fail %%i%u, \"waiting for the wait fence failed\"",
                  st);
    kiln_asm_place_label(e->f, ok);
    e->wait_consumed = true;
  }
  for (kiln_ir_block_t* block = entry; block; block = block->next) {
    if (block != entry) {
      for (size_t i = 0; i < e->num_block_consts; ++i) {
        kiln_ptr_map_put(&e->storage, e->block_consts[i], NULL);
      }
      e->num_block_consts = 0;
      kiln_asm_place_label(
          e->f,
          (uint32_t)(uintptr_t)kiln_ptr_map_get(&e->block_labels, block) - 1);
    }
    for (kiln_ir_op_t* op = block->first_op; op; op = op->next) {
      if (kiln_ir_op_is(op, KILN_DISPATCH_REGION_OP)) {
        KILN_RETURN_IF_ERROR(kiln_em_dispatch(e, op));
      } else if (kiln_schedule_is_alias_op(op)) {
        // Result i aliases operand i for util.optimization_barrier (tensor
        // values only), result 0 aliases operand 0 for the others.
        bool barrier = kiln_ir_op_is(op, "util.optimization_barrier");
        for (uint32_t i = 0; i < (barrier ? op->num_results : 1); ++i) {
          kiln_ir_value_t* from = kiln_ir_op_operand(op, i);
          if (barrier && !kiln_ir_type_is_shaped(from->type)) continue;
          kiln_hstore_t* src = NULL;
          KILN_RETURN_IF_ERROR(kiln_em_storage(e, op, from, &src));
          kiln_ptr_map_put(&e->storage, &op->results[i], src);
          if (kiln_ir_op_is(op, "tensor.cast")) {
            KILN_RETURN_IF_ERROR(kiln_em_check_cast(e, op));
          }
        }
      } else if (kiln_ir_op_is(op, "arith.constant") ||
                 kiln_ir_op_is(op, "flow.tensor.dynamic_constant") ||
                 kiln_ir_op_has_trait(op, KILN_IR_TRAIT_CONSTANT_LIKE) ||
                 kiln_ir_op_is(op, "tensor.empty")) {
        // Materialized on first use.
      } else if (kiln_ir_op_is(op, "tensor.dim")) {
        KILN_RETURN_IF_ERROR(kiln_em_host_dim(e, op));
      } else if (kiln_schedule_is_shape_op(op)) {
        KILN_RETURN_IF_ERROR(kiln_em_shape_op(e, op));
      } else if (kiln_ir_op_is(op, "tensor.extract")) {
        KILN_RETURN_IF_ERROR(kiln_em_host_extract(e, op));
      } else if (kiln_ir_op_is(op, "tensor.from_elements")) {
        KILN_RETURN_IF_ERROR(kiln_em_from_elements(e, op));
      } else if (kiln_ir_op_is(op, "func.call") &&
                 kiln_em_external_callee(e, op, &callee)) {
        KILN_RETURN_IF_ERROR(kiln_em_import_call(e, op, callee));
      } else if (kiln_ir_op_is(op, "util.buffer.constant") ||
                 kiln_ir_op_is(op, "util.buffer.size") ||
                 kiln_ir_op_is(op, "util.buffer.load") ||
                 kiln_ir_op_is(op, "util.buffer.alloc") ||
                 kiln_ir_op_is(op, "util.buffer.store") ||
                 kiln_ir_op_is(op, "util.buffer.fill") ||
                 kiln_ir_op_is(op, "util.buffer.copy") ||
                 kiln_ir_op_is(op, "util.buffer.subspan")) {
        KILN_RETURN_IF_ERROR(kiln_em_util_buffer(e, op));
      } else if (kiln_ir_op_is(op, "util.global.load")) {
        KILN_RETURN_IF_ERROR(kiln_em_global_load(e, op));
      } else if (kiln_ir_op_is(op, "util.global.store")) {
        KILN_RETURN_IF_ERROR(kiln_em_global_store(e, op));
      } else if (kiln_ir_op_is(op, "cf.br") ||
                 kiln_ir_op_is(op, "cf.cond_br")) {
        KILN_RETURN_IF_ERROR(kiln_em_branch(e, op));
      } else if (kiln_ir_op_is(op, "cf.assert")) {
        KILN_RETURN_IF_ERROR(kiln_em_assert(e, op));
      } else if (kiln_string_view_starts_with(
                     op->name, kiln_make_cstring_view("check."))) {
        KILN_RETURN_IF_ERROR(kiln_em_check(e, op));
      } else if (kiln_ir_op_is(op, "func.return")) {
        uint32_t views[64];
        int banks[64];
        if (op->num_operands > 64)
          return kiln_em_error(e, op, "too many results");
        // Views first (they may materialize constants), then submit.
        // Scalar results are in registers (read back by tensor.extract).
        for (uint32_t i = 0; i < op->num_operands; ++i) {
          kiln_ir_value_t* v = kiln_ir_op_operand(op, i);
          banks[i] = KILN_VM_BANK_REF;
          if (!kiln_ir_type_is_shaped(v->type)) {
            if (!kiln_em_host_scalar(e, v, &banks[i], &views[i])) {
              return kiln_em_error(e, op,
                                   "a scalar result must be a constant or "
                                   "read back at host level");
            }
            continue;
          }
          KILN_RETURN_IF_ERROR(kiln_em_view(e, op, v, &views[i]));
        }
        kiln_em_submit(e, e->is_async);
        kiln_ir_string_builder_t line = {0};
        kiln_ir_sb_printf(&line, "ret");
        for (uint32_t i = 0; i < op->num_operands; ++i) {
          kiln_ir_sb_printf(&line, "%s %%%c%u", i ? "," : "", "ilfdr"[banks[i]],
                            views[i]);
        }
        kiln_asm_emit(e->f, "%.*s", (int)line.size,
                      line.data ? line.data : "ret");
        kiln_ir_sb_free(&line);
      } else {
        return kiln_ir_op_emit_error(
            op, ctx,
            "vm-emission: unsupported op '%.*s' at host level (not lowered "
            "into a dispatch)",
            (int)op->name.size, op->name.data);
      }
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_em_function(kiln_em_module_t* m, kiln_ir_op_t* func) {
  kiln_ir_context_t* ctx = m->ctx;
  const kiln_ir_type_t* ft = kiln_ir_func_type(func);
  if (!ft) return kiln_ir_op_emit_error(func, ctx, "vm-emission: no type");
  bool is_async = m->options && m->options->execution_model ==
                                    KILN_EXECUTION_MODEL_ASYNC_EXTERNAL;
  // Signature: one type char per argument and result ('r' for tensors, as
  // buffer views; i/l/f/d for scalars), then the async fences.
  char args[300], results[300], sig[700];
  size_t na = 0, nr = 0, num_ref_args = 0;
  for (size_t i = 0; i < ft->function.num_inputs && na < 250; ++i) {
    args[na] = kiln_em_abi_char(ft->function.inputs[i]);
    num_ref_args += args[na++] == 'r';
  }
  if (is_async) {
    args[na++] = 'r';
    args[na++] = 'r';
  }
  args[na] = 0;
  for (size_t i = 0; i < ft->function.num_results && nr < 250; ++i) {
    results[nr++] = kiln_em_abi_char(ft->function.results[i]);
  }
  results[nr] = 0;
  snprintf(sig, sizeof(sig), "%s->%s", args, results);
  kiln_asm_function_t* f =
      (kiln_asm_function_t*)kiln_ir_arena_alloc(ctx, sizeof(*f));
  kiln_em_function_t* e =
      (kiln_em_function_t*)kiln_ir_arena_alloc(ctx, sizeof(*e));
  if (!f || !e) return kiln_ir_context_take_error(ctx);
  kiln_asm_function_init(f, args);
  e->m = m;
  e->f = f;
  e->func = func;
  e->is_async = is_async;
  e->storage = kiln_ptr_map_make(ctx);
  e->dims = kiln_ptr_map_make(ctx);
  e->executables = kiln_ptr_map_make(ctx);
  e->scalars = kiln_ptr_map_make(ctx);
  e->host_scalars = kiln_ptr_map_make(ctx);
  e->buffer_views = kiln_ptr_map_make(ctx);
  e->block_labels = kiln_ptr_map_make(ctx);
  if (is_async) {
    e->wait_fence = (uint32_t)num_ref_args;
    e->signal_fence = e->wait_fence + 1;
  }
  kiln_status_t status = kiln_em_function_body(e);
  if (!status) {
    kiln_string_view_t name = kiln_ir_symbol_name(func);
    kiln_ir_string_builder_t attrs = {0};
    const char* abi = kiln_ir_type_to_string(ctx, ft);
    kiln_ir_sb_printf(&attrs, "  attr \"iree.abi\" ");
    kiln_asm_quote(&attrs, abi ? abi : "", abi ? strlen(abi) : 0);
    kiln_ir_sb_printf(&attrs, "\n");
    if (is_async) {
      kiln_ir_sb_printf(&attrs,
                        "  attr \"iree.abi.model\" \"coarse-fences\"\n");
    }
    char* fname = kiln_ir_arena_printf(ctx, "%.*s", (int)name.size, name.data);
    kiln_asm_function_finish(f, fname ? fname : "main", sig, true, attrs.data,
                             &m->functions);
    kiln_ir_sb_free(&attrs);
  }
  kiln_ir_sb_free(&e->rec);
  kiln_asm_function_deinit(f);
  return status;
}

static bool kiln_func_is_public(kiln_ir_op_t* func) {
  const kiln_ir_attribute_t* vis = kiln_ir_op_get_attr(func, "sym_visibility");
  return !vis || vis->kind != KILN_IR_ATTR_STRING ||
         kiln_string_view_equal_cstr(vis->str, "public");
}

// Writes --iree-parameter-export's archive (the exported constants) and
// --iree-parameter-splat's (a zero splat per parameter).
static kiln_status_t kiln_em_write_parameter_archives(kiln_em_module_t* m) {
  const char* splat_path = m->options && m->options->parameter_splat &&
                                   m->options->parameter_splat[0]
                               ? m->options->parameter_splat
                               : NULL;
  if (!m->export_path && !splat_path) return kiln_ok_status();
  kiln_io_irpa_entry_t* entries = (kiln_io_irpa_entry_t*)kiln_ir_arena_alloc(
      m->ctx, (m->parameter_count + 1) * sizeof(*entries));
  if (!entries) return kiln_ir_context_take_error(m->ctx);
  if (m->export_path) {
    size_t n = 0;
    for (size_t i = 0; i < m->parameter_count; ++i) {
      const kiln_em_parameter_t* p = &m->parameters[i];
      if (!p->data) continue;
      memset(&entries[n], 0, sizeof(entries[n]));
      entries[n].key = p->key;
      entries[n].data = p->data->dense.data;
      entries[n].length = (uint64_t)p->bytes;
      ++n;
    }
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_io_irpa_write_file(m->export_path, entries, n),
        "--iree-parameter-export");
  }
  if (splat_path) {
    for (size_t i = 0; i < m->parameter_count; ++i) {
      const kiln_em_parameter_t* p = &m->parameters[i];
      memset(&entries[i], 0, sizeof(entries[i]));
      entries[i].key = p->key;
      entries[i].length = (uint64_t)p->bytes;
      // Zero bits are zero for the element types kiln has; one element of
      // them is the pattern (IREE's splat archives do the same).
      size_t eb = p->element_bytes;
      entries[i].splat_pattern_length =
          (uint8_t)(eb == 1 || eb == 2 || eb == 4 || eb == 8 || eb == 16 ? eb
                                                                         : 1);
    }
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_io_irpa_write_file(splat_path, entries, m->parameter_count),
        "--iree-parameter-splat");
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_emission(kiln_ir_context_t* context, kiln_ir_op_t* module,
                               const kiln_vm_emission_options_t* options) {
  KILN_RETURN_IF_ERROR(kiln_dispatch_register_ops(context));
  kiln_em_module_t* m =
      (kiln_em_module_t*)kiln_ir_arena_alloc(context, sizeof(*m));
  if (!m) return kiln_ir_context_take_error(context);
  m->ctx = context;
  m->options = options;
  if (options && options->parameter_export && options->parameter_export[0]) {
    // `scope=path` or `path` (the empty scope), as IREE's flag.
    const char* v = options->parameter_export;
    const char* eq = strchr(v, '=');
    m->export_path = eq ? eq + 1 : v;
    m->export_scope = eq ? kiln_make_string_view(v, (size_t)(eq - v))
                         : kiln_string_view_empty();
  }
  m->constant_rodata = kiln_ptr_map_make(context);
  m->exe_globals = kiln_ptr_map_make(context);
  m->user_import_names = kiln_ptr_map_make(context);
  kiln_status_t status = kiln_ok_status();
  kiln_ir_block_t* body = kiln_ir_module_body(module);
  for (kiln_ir_op_t* op = body ? body->first_op : NULL; op && !status;
       op = op->next) {
    if (kiln_ir_op_is(op, KILN_HAL_EXECUTABLE_OP)) {
      size_t nl, fl, el, sl, al;
      const char* name = kiln_ir_op_get_string_attr(op, "sym_name", &nl);
      const char* format = kiln_ir_op_get_string_attr(op, "format", &fl);
      const char* entry = kiln_ir_op_get_string_attr(op, "entry", &el);
      const char* source = kiln_ir_op_get_string_attr(op, "source", &sl);
      const char* text = kiln_ir_op_get_string_attr(op, "vm_asm", &al);
      kiln_ir_sb_printf(&m->executables, "executable @%.*s : \"%.*s\" {\n",
                        (int)nl, name, (int)fl, format);
      // A backend that lists its entry points itself (several per
      // executable) writes the whole block body.
      size_t bl;
      const char* body_text = kiln_ir_op_get_string_attr(op, "body", &bl);
      if (bl) {
        kiln_ir_sb_append(&m->executables, body_text, bl);
        kiln_ir_sb_printf(&m->executables, "}\n");
        continue;
      }
      kiln_ir_sb_printf(&m->executables,
                        "  entry @%.*s workgroup 1 1 1 source ", (int)el,
                        entry);
      kiln_asm_quote(&m->executables, source, sl);
      kiln_ir_sb_printf(&m->executables, "\n");
      kiln_ir_sb_append(&m->executables, text, al);
      kiln_ir_sb_printf(&m->executables, "}\n");
    } else if (kiln_ir_op_is(op, "func.func") &&
               !kiln_ir_func_is_declaration(op) && kiln_func_is_public(op)) {
      status = kiln_em_function(m, op);
    }
  }
  kiln_ir_string_builder_t out = {0};
  if (!status) {
    kiln_string_view_t module_name = kiln_ir_symbol_name(module);
    if (module_name.size) {
      kiln_ir_sb_printf(&out, "module @%.*s\n", (int)module_name.size,
                        module_name.data);
    } else {
      kiln_ir_sb_printf(&out, "module @module\n");
    }
    for (int i = 0; i < KILN_IMPORT_COUNT; ++i) {
      if (m->used_imports[i]) {
        kiln_ir_sb_printf(&out, "import @%s : %s\n", kImports[i].name,
                          kImports[i].signature);
      }
    }
    if (m->user_imports.size) {
      kiln_ir_sb_append(&out, m->user_imports.data, m->user_imports.size);
    }
    if (m->rodata.size) kiln_ir_sb_append(&out, m->rodata.data, m->rodata.size);
    if (m->globals.size) {
      kiln_ir_sb_append(&out, m->globals.data, m->globals.size);
    }
    if (m->executables.size) {
      kiln_ir_sb_append(&out, m->executables.data, m->executables.size);
    }
    if (m->functions.size) {
      kiln_ir_sb_append(&out, m->functions.data, m->functions.size);
    }
    if (out.failed) {
      status = kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory emitting VM assembly");
    }
  }
  if (!status) status = kiln_em_write_parameter_archives(m);
  if (!status) {
    const kiln_ir_attribute_t* blobs =
        kiln_ir_array_attr_get(context, m->blob_count, m->blobs);
    status = blobs ? kiln_ir_op_set_attr(context, module, "kiln.vm_rodata",
                                         blobs, false)
                   : kiln_ir_context_take_error(context);
  }
  if (!status) {
    status = kiln_ir_op_set_attr(
        context, module, "kiln.vm_asm",
        kiln_ir_string_attr_get(context,
                                kiln_make_string_view(out.data, out.size)),
        false);
  }
  kiln_ir_sb_free(&out);
  kiln_ir_sb_free(&m->rodata);
  kiln_ir_sb_free(&m->executables);
  kiln_ir_sb_free(&m->functions);
  kiln_ir_sb_free(&m->globals);
  kiln_ir_sb_free(&m->user_imports);
  return status;
}

const char* kiln_vm_emission_text(kiln_ir_op_t* module, size_t* out_length) {
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(module, "kiln.vm_asm");
  if (!a || a->kind != KILN_IR_ATTR_STRING) {
    *out_length = 0;
    return NULL;
  }
  *out_length = a->str.size;
  return a->str.data;
}

kiln_status_t kiln_vm_emission_blobs(kiln_ir_op_t* module,
                                     kiln_allocator_t allocator,
                                     kiln_vm_asm_blob_t** out_blobs,
                                     size_t* out_count) {
  *out_blobs = NULL;
  *out_count = 0;
  const kiln_ir_attribute_t* a = kiln_ir_op_get_attr(module, "kiln.vm_rodata");
  if (!a || a->kind != KILN_IR_ATTR_ARRAY || a->array.count == 0) {
    return kiln_ok_status();
  }
  kiln_vm_asm_blob_t* blobs = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(
      allocator, a->array.count * sizeof(*blobs), (void**)&blobs));
  for (size_t i = 0; i < a->array.count; ++i) {
    const kiln_ir_attribute_t* dense = a->array.elements[i];
    size_t eb = kiln_ir_type_storage_bytes(kiln_ir_type_element(dense->type));
    blobs[i].data = dense->dense.data;
    blobs[i].length = (size_t)kiln_ir_dense_num_elements(dense) * eb;
  }
  *out_blobs = blobs;
  *out_count = a->array.count;
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_emission_run(kiln_ir_context_t* context,
                                          kiln_ir_op_t* module,
                                          void* user_data) {
  return kiln_vm_emission(context, module,
                          (const kiln_vm_emission_options_t*)user_data);
}

const kiln_ir_pass_t kiln_vm_emission_pass = {
    .name = "vm-emission",
    .description = "emit the host module's VM assembly (kiln.vm_asm)",
    .run = kiln_vm_emission_run,
    .user_data = NULL,
};
