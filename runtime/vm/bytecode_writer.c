// Module writer: collects tables in memory and serializes them in the layout
// of bytecode_format.h.
#include "runtime/vm/bytecode_writer.h"

#include <inttypes.h>
#include <string.h>

#include "runtime/base/crc32.h"
#include "runtime/base/sha256.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/bytecode_module.h"
#include "runtime/vm/value.h"

typedef struct kiln_vm_bytes_t {
  uint8_t* data;
  size_t size;
  size_t capacity;
} kiln_vm_bytes_t;

typedef struct kiln_vm_w_function_t {
  uint32_t name, signature;
  uint16_t regs[5];
  kiln_vm_bytes_t code;
} kiln_vm_w_function_t;

typedef struct kiln_vm_w_export_t {
  uint32_t name, function;
  kiln_vm_bytes_t attrs;  // pairs of u32 string indices
} kiln_vm_w_export_t;

typedef struct kiln_vm_w_blob_t {
  uint32_t name, format, alignment;
  bool with_digest;
  bool splat;      // rodata: |data| is {u64 length, pattern}
  bool parameter;  // rodata: |data| is {u32 scope, u32 key, u64 length}
  bool borrowed;   // |data| is the caller's (not freed, never grown)
  kiln_vm_bytes_t data;
  kiln_vm_bytes_t entries;  // 24-byte entry point records
  uint32_t entry_count;
} kiln_vm_w_blob_t;

// A growable array of fixed-size records.
typedef struct kiln_vm_vec_t {
  void* items;
  size_t count;
  size_t capacity;
} kiln_vm_vec_t;

struct kiln_vm_bytecode_writer_t {
  kiln_allocator_t allocator;
  bool has_name;
  uint32_t name;
  kiln_vm_vec_t strings;      // kiln_vm_bytes_t
  kiln_vm_vec_t imports;      // uint32_t[2]
  kiln_vm_vec_t functions;    // kiln_vm_w_function_t
  kiln_vm_vec_t exports;      // kiln_vm_w_export_t
  kiln_vm_vec_t rodata;       // kiln_vm_w_blob_t
  kiln_vm_vec_t executables;  // kiln_vm_w_blob_t
  kiln_vm_vec_t globals;      // uint32_t[2]: name string, bank
};

static kiln_status_t kiln_vm_bytes_reserve(kiln_allocator_t a,
                                           kiln_vm_bytes_t* b, size_t extra) {
  if (b->size + extra <= b->capacity) return kiln_ok_status();
  size_t capacity = b->capacity ? b->capacity * 2 : 64;
  while (capacity < b->size + extra) capacity *= 2;
  KILN_RETURN_IF_ERROR(kiln_allocator_realloc(a, capacity, (void**)&b->data));
  b->capacity = capacity;
  return kiln_ok_status();
}
static kiln_status_t kiln_vm_bytes_append(kiln_allocator_t a,
                                          kiln_vm_bytes_t* b, const void* data,
                                          size_t size) {
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_reserve(a, b, size));
  if (size) memcpy(b->data + b->size, data, size);
  b->size += size;
  return kiln_ok_status();
}
static kiln_status_t kiln_vm_bytes_zeros(kiln_allocator_t a, kiln_vm_bytes_t* b,
                                         size_t size) {
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_reserve(a, b, size));
  memset(b->data + b->size, 0, size);
  b->size += size;
  return kiln_ok_status();
}
static kiln_status_t kiln_vm_bytes_u16(kiln_allocator_t a, kiln_vm_bytes_t* b,
                                       uint16_t v) {
  return kiln_vm_bytes_append(a, b, &v, 2);
}
static kiln_status_t kiln_vm_bytes_u32(kiln_allocator_t a, kiln_vm_bytes_t* b,
                                       uint32_t v) {
  return kiln_vm_bytes_append(a, b, &v, 4);
}
static kiln_status_t kiln_vm_bytes_u64(kiln_allocator_t a, kiln_vm_bytes_t* b,
                                       uint64_t v) {
  return kiln_vm_bytes_append(a, b, &v, 8);
}
static kiln_status_t kiln_vm_bytes_align(kiln_allocator_t a, kiln_vm_bytes_t* b,
                                         size_t alignment) {
  size_t pad = (size_t)kiln_align_up(b->size, alignment) - b->size;
  return kiln_vm_bytes_zeros(a, b, pad);
}

static kiln_status_t kiln_vm_vec_push(kiln_allocator_t a, kiln_vm_vec_t* v,
                                      size_t item_size, void** out_item) {
  if (v->count == v->capacity) {
    size_t capacity = v->capacity ? v->capacity * 2 : 8;
    KILN_RETURN_IF_ERROR(
        kiln_allocator_realloc(a, capacity * item_size, &v->items));
    v->capacity = capacity;
  }
  *out_item = (uint8_t*)v->items + item_size * v->count++;
  memset(*out_item, 0, item_size);
  return kiln_ok_status();
}

#define KILN_VEC_AT(vec, type, i) (&((type*)(vec).items)[i])

kiln_status_t kiln_vm_bytecode_writer_create(
    kiln_allocator_t allocator, kiln_vm_bytecode_writer_t** out_writer) {
  *out_writer = NULL;
  kiln_vm_bytecode_writer_t* w = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*w), (void**)&w));
  w->allocator = allocator;
  *out_writer = w;
  return kiln_ok_status();
}

void kiln_vm_bytecode_writer_destroy(kiln_vm_bytecode_writer_t* w) {
  if (!w) return;
  kiln_allocator_t a = w->allocator;
  for (size_t i = 0; i < w->strings.count; ++i) {
    kiln_allocator_free(a, KILN_VEC_AT(w->strings, kiln_vm_bytes_t, i)->data);
  }
  for (size_t i = 0; i < w->functions.count; ++i) {
    kiln_allocator_free(
        a, KILN_VEC_AT(w->functions, kiln_vm_w_function_t, i)->code.data);
  }
  for (size_t i = 0; i < w->exports.count; ++i) {
    kiln_allocator_free(
        a, KILN_VEC_AT(w->exports, kiln_vm_w_export_t, i)->attrs.data);
  }
  kiln_vm_vec_t* blobs[2] = {&w->rodata, &w->executables};
  for (int k = 0; k < 2; ++k) {
    for (size_t i = 0; i < blobs[k]->count; ++i) {
      kiln_vm_w_blob_t* b = KILN_VEC_AT(*blobs[k], kiln_vm_w_blob_t, i);
      if (!b->borrowed) kiln_allocator_free(a, b->data.data);
      kiln_allocator_free(a, b->entries.data);
    }
  }
  kiln_allocator_free(a, w->strings.items);
  kiln_allocator_free(a, w->imports.items);
  kiln_allocator_free(a, w->functions.items);
  kiln_allocator_free(a, w->exports.items);
  kiln_allocator_free(a, w->rodata.items);
  kiln_allocator_free(a, w->executables.items);
  kiln_allocator_free(a, w->globals.items);
  kiln_allocator_free(a, w);
}

kiln_status_t kiln_vm_bytecode_writer_add_string(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t value,
                                                 uint32_t* out_index) {
  for (size_t i = 0; i < w->strings.count; ++i) {
    kiln_vm_bytes_t* s = KILN_VEC_AT(w->strings, kiln_vm_bytes_t, i);
    if (s->size == value.size &&
        (value.size == 0 || memcmp(s->data, value.data, value.size) == 0)) {
      *out_index = (uint32_t)i;
      return kiln_ok_status();
    }
  }
  kiln_vm_bytes_t* s = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_vec_push(w->allocator, &w->strings,
                                        sizeof(kiln_vm_bytes_t), (void**)&s));
  *out_index = (uint32_t)(w->strings.count - 1);
  return kiln_vm_bytes_append(w->allocator, s, value.data, value.size);
}

kiln_status_t kiln_vm_bytecode_writer_set_name(kiln_vm_bytecode_writer_t* w,
                                               kiln_string_view_t name) {
  if (name.size == 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "module name must not be empty");
  }
  w->has_name = true;
  return kiln_vm_bytecode_writer_add_string(w, name, &w->name);
}

static kiln_status_t kiln_vm_check_signature(kiln_string_view_t sig,
                                             bool allow_variadic) {
  kiln_vm_signature_t parsed;
  KILN_RETURN_IF_ERROR(kiln_vm_signature_parse(sig, &parsed));
  if (parsed.variadic && !allow_variadic) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "bytecode functions cannot be variadic ('%.*s')",
                            KILN_SV_ARG(sig));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_add_import(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t full_name,
                                                 kiln_string_view_t signature,
                                                 uint32_t* out_ordinal) {
  if (kiln_string_view_find_char(full_name, '.', 0) == SIZE_MAX) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "import '%.*s' must be named 'module.function'",
                            KILN_SV_ARG(full_name));
  }
  KILN_RETURN_IF_ERROR(kiln_vm_check_signature(signature, true));
  uint32_t name, sig;
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_add_string(w, full_name, &name));
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_add_string(w, signature, &sig));
  uint32_t* entry = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_vec_push(w->allocator, &w->imports,
                                        2 * sizeof(uint32_t), (void**)&entry));
  entry[0] = name;
  entry[1] = sig;
  if (out_ordinal) *out_ordinal = (uint32_t)(w->imports.count - 1);
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_add_function(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name,
    kiln_string_view_t signature, const uint16_t register_counts[5],
    const uint8_t* code, size_t code_length, uint32_t* out_ordinal) {
  KILN_RETURN_IF_ERROR(kiln_vm_check_signature(signature, false));
  uint32_t name_index, sig_index;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, name, &name_index));
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, signature, &sig_index));
  kiln_vm_w_function_t* f = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_vec_push(
      w->allocator, &w->functions, sizeof(kiln_vm_w_function_t), (void**)&f));
  f->name = name_index;
  f->signature = sig_index;
  uint32_t ordinal = (uint32_t)(w->functions.count - 1);
  if (out_ordinal) *out_ordinal = ordinal;
  if (code || register_counts) {
    return kiln_vm_bytecode_writer_set_function_code(
        w, ordinal, register_counts, code, code_length);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_set_function_code(
    kiln_vm_bytecode_writer_t* w, uint32_t ordinal,
    const uint16_t register_counts[5], const uint8_t* code,
    size_t code_length) {
  if (ordinal >= w->functions.count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "function ordinal %u out of range", ordinal);
  }
  kiln_vm_w_function_t* f =
      KILN_VEC_AT(w->functions, kiln_vm_w_function_t, ordinal);
  if (register_counts) memcpy(f->regs, register_counts, sizeof(f->regs));
  f->code.size = 0;
  return kiln_vm_bytes_append(w->allocator, &f->code, code, code_length);
}

kiln_status_t kiln_vm_bytecode_writer_add_export(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t name,
                                                 uint32_t function_ordinal,
                                                 uint32_t* out_export_ordinal) {
  if (function_ordinal >= w->functions.count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "export '%.*s': function %u out of range",
                            KILN_SV_ARG(name), function_ordinal);
  }
  uint32_t name_index;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, name, &name_index));
  for (size_t i = 0; i < w->exports.count; ++i) {
    if (KILN_VEC_AT(w->exports, kiln_vm_w_export_t, i)->name == name_index) {
      return kiln_make_status(KILN_STATUS_ALREADY_EXISTS,
                              "duplicate export '%.*s'", KILN_SV_ARG(name));
    }
  }
  kiln_vm_w_export_t* x = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_vec_push(
      w->allocator, &w->exports, sizeof(kiln_vm_w_export_t), (void**)&x));
  x->name = name_index;
  x->function = function_ordinal;
  if (out_export_ordinal) {
    *out_export_ordinal = (uint32_t)(w->exports.count - 1);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_add_export_attr(
    kiln_vm_bytecode_writer_t* w, uint32_t export_ordinal,
    kiln_string_view_t key, kiln_string_view_t value) {
  if (export_ordinal >= w->exports.count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "export ordinal %u out of range", export_ordinal);
  }
  uint32_t k, v;
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_add_string(w, key, &k));
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_add_string(w, value, &v));
  kiln_vm_w_export_t* x =
      KILN_VEC_AT(w->exports, kiln_vm_w_export_t, export_ordinal);
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(w->allocator, &x->attrs, k));
  return kiln_vm_bytes_u32(w->allocator, &x->attrs, v);
}

kiln_status_t kiln_vm_bytecode_writer_add_global(kiln_vm_bytecode_writer_t* w,
                                                 kiln_string_view_t name,
                                                 uint32_t bank,
                                                 uint32_t* out_ordinal) {
  if (name.size == 0) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "global name must not be empty");
  }
  if (bank >= KILN_VM_BANK_COUNT) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "global '%.*s': bad bank %u", KILN_SV_ARG(name),
                            bank);
  }
  uint32_t name_index = 0;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, name, &name_index));
  for (size_t i = 0; i < w->globals.count; ++i) {
    if (KILN_VEC_AT(w->globals, uint32_t, 2 * i)[0] == name_index) {
      return kiln_make_status(KILN_STATUS_ALREADY_EXISTS,
                              "duplicate global '%.*s'", KILN_SV_ARG(name));
    }
  }
  uint32_t* entry = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_vec_push(w->allocator, &w->globals,
                                        2 * sizeof(uint32_t), (void**)&entry));
  entry[0] = name_index;
  entry[1] = bank;
  if (out_ordinal) *out_ordinal = (uint32_t)(w->globals.count - 1);
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_add_blob(
    kiln_vm_bytecode_writer_t* w, kiln_vm_vec_t* vec, kiln_string_view_t name,
    kiln_string_view_t format, const void* data, size_t length,
    uint32_t alignment, bool with_digest, uint32_t* out_ordinal) {
  if (alignment < KILN_VM_DATA_ALIGNMENT) alignment = KILN_VM_DATA_ALIGNMENT;
  if ((alignment & (alignment - 1)) || alignment > KILN_VM_MAX_ALIGNMENT) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "'%.*s': alignment %u is not a power of two up to "
                            "65536",
                            KILN_SV_ARG(name), alignment);
  }
  uint32_t name_index, format_index = 0;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, name, &name_index));
  for (size_t i = 0; i < vec->count; ++i) {
    if (KILN_VEC_AT(*vec, kiln_vm_w_blob_t, i)->name == name_index) {
      return kiln_make_status(KILN_STATUS_ALREADY_EXISTS,
                              "duplicate name '%.*s'", KILN_SV_ARG(name));
    }
  }
  if (format.data) {
    KILN_RETURN_IF_ERROR(
        kiln_vm_bytecode_writer_add_string(w, format, &format_index));
  }
  kiln_vm_w_blob_t* b = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_vec_push(w->allocator, vec,
                                        sizeof(kiln_vm_w_blob_t), (void**)&b));
  b->name = name_index;
  b->format = format_index;
  b->alignment = alignment;
  b->with_digest = with_digest;
  if (out_ordinal) *out_ordinal = (uint32_t)(vec->count - 1);
  return kiln_vm_bytes_append(w->allocator, &b->data, data, length);
}

kiln_status_t kiln_vm_bytecode_writer_add_rodata(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name, const void* data,
    size_t length, uint32_t alignment, uint32_t* out_ordinal) {
  return kiln_vm_add_blob(w, &w->rodata, name, kiln_make_string_view(NULL, 0),
                          data, length, alignment, false, out_ordinal);
}

kiln_status_t kiln_vm_bytecode_writer_add_rodata_borrowed(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name, const void* data,
    size_t length, uint32_t alignment, uint32_t* out_ordinal) {
  uint32_t ordinal = 0;
  KILN_RETURN_IF_ERROR(kiln_vm_add_blob(w, &w->rodata, name,
                                        kiln_make_string_view(NULL, 0), NULL, 0,
                                        alignment, false, &ordinal));
  kiln_vm_w_blob_t* b = KILN_VEC_AT(w->rodata, kiln_vm_w_blob_t, ordinal);
  b->borrowed = true;
  b->data.data = (uint8_t*)data;  // read only: never appended to or freed
  b->data.size = length;
  b->data.capacity = 0;
  if (out_ordinal) *out_ordinal = ordinal;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_add_rodata_splat(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name, const void* pattern,
    size_t pattern_length, uint64_t length, uint32_t alignment,
    uint32_t* out_ordinal) {
  if (pattern_length == 0 ||
      pattern_length > KILN_VM_RODATA_MAX_SPLAT_PATTERN ||
      length % pattern_length) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "'%.*s': a splat of %" PRIu64
                            " bytes needs a pattern of 1..%d bytes dividing "
                            "it, got %zu",
                            KILN_SV_ARG(name), length,
                            KILN_VM_RODATA_MAX_SPLAT_PATTERN, pattern_length);
  }
  uint8_t data[8 + KILN_VM_RODATA_MAX_SPLAT_PATTERN];
  memcpy(data, &length, 8);
  memcpy(data + 8, pattern, pattern_length);
  uint32_t ordinal = 0;
  KILN_RETURN_IF_ERROR(
      kiln_vm_add_blob(w, &w->rodata, name, kiln_make_string_view(NULL, 0),
                       data, 8 + pattern_length, alignment, false, &ordinal));
  KILN_VEC_AT(w->rodata, kiln_vm_w_blob_t, ordinal)->splat = true;
  if (out_ordinal) *out_ordinal = ordinal;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_add_rodata_parameter(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name,
    kiln_string_view_t scope, kiln_string_view_t key, uint64_t length,
    uint32_t alignment, uint32_t* out_ordinal) {
  uint32_t strings[2];
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, scope, &strings[0]));
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_writer_add_string(w, key, &strings[1]));
  uint8_t data[KILN_VM_RODATA_PARAMETER_DATA_SIZE];
  memcpy(data, strings, 8);
  memcpy(data + 8, &length, 8);
  uint32_t ordinal = 0;
  KILN_RETURN_IF_ERROR(
      kiln_vm_add_blob(w, &w->rodata, name, kiln_make_string_view(NULL, 0),
                       data, sizeof(data), alignment, false, &ordinal));
  KILN_VEC_AT(w->rodata, kiln_vm_w_blob_t, ordinal)->parameter = true;
  if (out_ordinal) *out_ordinal = ordinal;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_add_executable(
    kiln_vm_bytecode_writer_t* w, kiln_string_view_t name,
    kiln_string_view_t format, const void* data, size_t length,
    bool with_digest, uint32_t* out_ordinal) {
  if (!format.data) format = kiln_string_view_empty();
  return kiln_vm_add_blob(w, &w->executables, name, format, data, length,
                          KILN_VM_DATA_ALIGNMENT, with_digest, out_ordinal);
}

kiln_status_t kiln_vm_bytecode_writer_add_entry_point(
    kiln_vm_bytecode_writer_t* w, uint32_t executable_ordinal,
    kiln_string_view_t name, const uint32_t workgroup_size[3],
    uint32_t local_memory_bytes, kiln_string_view_t source_location) {
  if (executable_ordinal >= w->executables.count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "executable ordinal %u out of range",
                            executable_ordinal);
  }
  uint32_t name_index, loc_index;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, name, &name_index));
  if (!source_location.data) source_location = kiln_string_view_empty();
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_writer_add_string(w, source_location, &loc_index));
  kiln_vm_w_blob_t* b =
      KILN_VEC_AT(w->executables, kiln_vm_w_blob_t, executable_ordinal);
  kiln_allocator_t a = w->allocator;
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, &b->entries, name_index));
  for (int i = 0; i < 3; ++i) {
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, &b->entries, workgroup_size[i]));
  }
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, &b->entries, local_memory_bytes));
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, &b->entries, loc_index));
  ++b->entry_count;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Serialization
//===----------------------------------------------------------------------===//

typedef struct kiln_vm_section_record_t {
  uint32_t kind;
  uint64_t offset;
  uint64_t length;
} kiln_vm_section_record_t;

static kiln_status_t kiln_vm_write_blobs(kiln_vm_bytecode_writer_t* w,
                                         kiln_vm_bytes_t* out,
                                         kiln_vm_vec_t* vec, bool executables,
                                         kiln_vm_section_record_t* record) {
  kiln_allocator_t a = w->allocator;
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, KILN_VM_DATA_ALIGNMENT));
  size_t start = out->size;
  uint32_t entry_total = 0;
  for (size_t i = 0; i < vec->count; ++i) {
    entry_total += KILN_VEC_AT(*vec, kiln_vm_w_blob_t, i)->entry_count;
  }
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)vec->count));
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytes_u32(a, out, executables ? entry_total : 0));
  size_t table = out->size;
  size_t entry_size =
      executables ? KILN_VM_EXECUTABLE_ENTRY_SIZE : KILN_VM_RODATA_ENTRY_SIZE;
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_zeros(a, out, entry_size * vec->count));
  uint32_t first_entry = 0;
  if (executables) {
    for (size_t i = 0; i < vec->count; ++i) {
      kiln_vm_w_blob_t* b = KILN_VEC_AT(*vec, kiln_vm_w_blob_t, i);
      KILN_RETURN_IF_ERROR(
          kiln_vm_bytes_append(a, out, b->entries.data, b->entries.size));
    }
  }
  for (size_t i = 0; i < vec->count; ++i) {
    kiln_vm_w_blob_t* b = KILN_VEC_AT(*vec, kiln_vm_w_blob_t, i);
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, b->alignment));
    uint64_t offset = out->size;
    KILN_RETURN_IF_ERROR(
        kiln_vm_bytes_append(a, out, b->data.data, b->data.size));
    uint8_t* e = out->data + table + entry_size * i;
    if (executables) {
      uint32_t flags = b->with_digest ? KILN_VM_EXECUTABLE_FLAG_HAS_DIGEST : 0;
      uint32_t fields[4] = {b->name, b->format, first_entry, b->entry_count};
      memcpy(e, fields, 16);
      uint64_t size = b->data.size;
      memcpy(e + 16, &offset, 8);
      memcpy(e + 24, &size, 8);
      memcpy(e + 32, &flags, 4);
      if (b->with_digest) {
        kiln_sha256_digest_t digest = kiln_sha256(b->data.data, b->data.size);
        memcpy(e + 40, digest.bytes, 32);
      }
      first_entry += b->entry_count;
    } else {
      uint32_t fields[2] = {
          b->name, b->alignment | (b->splat ? KILN_VM_RODATA_FLAG_SPLAT : 0) |
                       (b->parameter ? KILN_VM_RODATA_FLAG_PARAMETER : 0)};
      uint64_t size = b->data.size;
      memcpy(e, fields, 8);
      memcpy(e + 8, &offset, 8);
      memcpy(e + 16, &size, 8);
    }
  }
  record->kind =
      executables ? KILN_VM_SECTION_EXECUTABLES : KILN_VM_SECTION_RODATA;
  record->offset = start;
  record->length = out->size - start;
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_writer_serialize(kiln_vm_bytecode_writer_t* w,
                                              kiln_vm_bytes_t* out) {
  kiln_allocator_t a = w->allocator;
  kiln_vm_section_record_t sections[KILN_VM_SECTION_KIND_MAX];
  int section_count = 0;
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_zeros(a, out, KILN_VM_HEADER_SIZE));

  // STRINGS
  size_t start = out->size;
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)w->strings.count));
  uint32_t offset = 4 + 8 * (uint32_t)w->strings.count;
  for (size_t i = 0; i < w->strings.count; ++i) {
    kiln_vm_bytes_t* s = KILN_VEC_AT(w->strings, kiln_vm_bytes_t, i);
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, offset));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)s->size));
    offset += (uint32_t)s->size;
  }
  for (size_t i = 0; i < w->strings.count; ++i) {
    kiln_vm_bytes_t* s = KILN_VEC_AT(w->strings, kiln_vm_bytes_t, i);
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_append(a, out, s->data, s->size));
  }
  sections[section_count++] = (kiln_vm_section_record_t){
      KILN_VM_SECTION_STRINGS, start, out->size - start};

  // IMPORTS
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, 8));
  start = out->size;
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)w->imports.count));
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytes_append(a, out, w->imports.items, 8 * w->imports.count));
  sections[section_count++] = (kiln_vm_section_record_t){
      KILN_VM_SECTION_IMPORTS, start, out->size - start};

  // EXPORTS
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, 8));
  start = out->size;
  uint32_t attr_total = 0;
  for (size_t i = 0; i < w->exports.count; ++i) {
    attr_total +=
        (uint32_t)(KILN_VEC_AT(w->exports, kiln_vm_w_export_t, i)->attrs.size /
                   8);
  }
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)w->exports.count));
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, attr_total));
  uint32_t first_attr = 0;
  for (size_t i = 0; i < w->exports.count; ++i) {
    kiln_vm_w_export_t* x = KILN_VEC_AT(w->exports, kiln_vm_w_export_t, i);
    uint32_t count = (uint32_t)(x->attrs.size / 8);
    uint32_t fields[4] = {x->name, x->function, first_attr, count};
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_append(a, out, fields, 16));
    first_attr += count;
  }
  for (size_t i = 0; i < w->exports.count; ++i) {
    kiln_vm_w_export_t* x = KILN_VEC_AT(w->exports, kiln_vm_w_export_t, i);
    KILN_RETURN_IF_ERROR(
        kiln_vm_bytes_append(a, out, x->attrs.data, x->attrs.size));
  }
  sections[section_count++] = (kiln_vm_section_record_t){
      KILN_VM_SECTION_EXPORTS, start, out->size - start};

  // FUNCTIONS (code offsets are assigned in BYTECODE order)
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, 8));
  start = out->size;
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)w->functions.count));
  uint32_t code_offset = 0;
  for (size_t i = 0; i < w->functions.count; ++i) {
    kiln_vm_w_function_t* f =
        KILN_VEC_AT(w->functions, kiln_vm_w_function_t, i);
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, f->name));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, f->signature));
    for (int b = 0; b < 5; ++b) {
      KILN_RETURN_IF_ERROR(kiln_vm_bytes_u16(a, out, f->regs[b]));
    }
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u16(a, out, 0));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, code_offset));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)f->code.size));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, 0));
    code_offset += (uint32_t)kiln_align_up(f->code.size, 8);
  }
  sections[section_count++] = (kiln_vm_section_record_t){
      KILN_VM_SECTION_FUNCTIONS, start, out->size - start};

  // BYTECODE
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, 8));
  start = out->size;
  for (size_t i = 0; i < w->functions.count; ++i) {
    kiln_vm_w_function_t* f =
        KILN_VEC_AT(w->functions, kiln_vm_w_function_t, i);
    KILN_RETURN_IF_ERROR(
        kiln_vm_bytes_append(a, out, f->code.data, f->code.size));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_zeros(
        a, out, (size_t)kiln_align_up(f->code.size, 8) - f->code.size));
  }
  sections[section_count++] = (kiln_vm_section_record_t){
      KILN_VM_SECTION_BYTECODE, start, out->size - start};

  const int rodata_index = section_count;
  KILN_RETURN_IF_ERROR(kiln_vm_write_blobs(w, out, &w->rodata, false,
                                           &sections[section_count++]));
  KILN_RETURN_IF_ERROR(kiln_vm_write_blobs(w, out, &w->executables, true,
                                           &sections[section_count++]));

  // GLOBALS (only when there are globals, so modules without any stay
  // readable by 1.0 runtimes byte for byte apart from the minor version).
  if (w->globals.count) {
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, 8));
    start = out->size;
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)w->globals.count));
    KILN_RETURN_IF_ERROR(
        kiln_vm_bytes_append(a, out, w->globals.items,
                             KILN_VM_GLOBAL_ENTRY_SIZE * w->globals.count));
    sections[section_count++] = (kiln_vm_section_record_t){
        KILN_VM_SECTION_GLOBALS, start, out->size - start};
  }

  // RODATA_CHECKSUMS: one CRC per rodata entry, so that a reader can check
  // the structure at load and each weight at its first use. The structure
  // CRC is filled in last, once every other byte is final.
  uint64_t checksums = 0;
  const kiln_vm_section_record_t* rodata_record = &sections[rodata_index];
  if (w->rodata.count) {
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, 8));
    checksums = out->size;
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, 0));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, (uint32_t)w->rodata.count));
    for (size_t i = 0; i < w->rodata.count; ++i) {
      const kiln_vm_w_blob_t* b = KILN_VEC_AT(w->rodata, kiln_vm_w_blob_t, i);
      KILN_RETURN_IF_ERROR(
          kiln_vm_bytes_u32(a, out, kiln_crc32(b->data.data, b->data.size)));
    }
    sections[section_count++] = (kiln_vm_section_record_t){
        KILN_VM_SECTION_RODATA_CHECKSUMS, checksums, out->size - checksums};
  }

  // Section table.
  KILN_RETURN_IF_ERROR(kiln_vm_bytes_align(a, out, 8));
  uint64_t table = out->size;
  for (int i = 0; i < section_count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, sections[i].kind));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u32(a, out, 0));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u64(a, out, sections[i].offset));
    KILN_RETURN_IF_ERROR(kiln_vm_bytes_u64(a, out, sections[i].length));
  }

  // Header.
  uint8_t* h = out->data;
  memcpy(h, KILN_VM_MODULE_MAGIC, KILN_VM_MODULE_MAGIC_SIZE);
  // The oldest minor version that reads the content: 1.2 only with splat
  // rodata, so other modules stay readable by 1.1 runtimes.
  uint16_t major = KILN_VM_MODULE_VERSION_MAJOR, minor = 1;
  for (size_t i = 0; i < w->rodata.count; ++i) {
    const kiln_vm_w_blob_t* b = KILN_VEC_AT(w->rodata, kiln_vm_w_blob_t, i);
    if (b->splat && minor < 2) minor = 2;
    if (b->parameter) minor = 3;
  }
  memcpy(h + 8, &major, 2);
  memcpy(h + 10, &minor, 2);
  uint64_t length = out->size;
  memcpy(h + 16, &length, 8);
  uint32_t count = (uint32_t)section_count;
  memcpy(h + 28, &count, 4);
  memcpy(h + 32, &table, 8);
  memcpy(h + 40, &w->name, 4);
  if (checksums) {
    uint64_t data_begin = rodata_record->offset + 8 +
                          KILN_VM_RODATA_ENTRY_SIZE * (uint64_t)w->rodata.count;
    uint32_t structure =
        kiln_vm_structure_crc32(out->data, out->size, checksums, data_begin,
                                rodata_record->offset + rodata_record->length);
    memcpy(out->data + checksums, &structure, 4);
  }
  uint32_t crc = kiln_crc32(out->data, out->size);
  memcpy(out->data + KILN_VM_HEADER_CRC_OFFSET, &crc, 4);
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_writer_finish(kiln_vm_bytecode_writer_t* w,
                                             uint8_t** out_bytes,
                                             size_t* out_length) {
  *out_bytes = NULL;
  *out_length = 0;
  if (!w->has_name) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "module has no name");
  }
  kiln_vm_bytes_t out = {0};
  kiln_status_t status = kiln_vm_writer_serialize(w, &out);
  if (status) {
    kiln_allocator_free(w->allocator, out.data);
    return status;
  }
  *out_bytes = out.data;
  *out_length = out.size;
  return kiln_ok_status();
}
