// ONNX model reading and the graph walk: protobuf-c decodes the ModelProto;
// initializers and Constant nodes become known constants (folded where
// shape computations need them, materialized as stablehlo.constant where
// ops consume them); each node is lowered by the op table in onnx_ops.c.
#include "compiler/input/onnx/onnx_import.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/input/onnx/onnx_internal.h"
#include "compiler/ir/builtin.h"

//===----------------------------------------------------------------------===//
// Recognizing a model
//===----------------------------------------------------------------------===//

// One protobuf wire field: |varint| for wire types 0, 1 and 5 (fixed
// widths read little endian), |bytes|/|length| for wire type 2.
typedef struct kiln_onnx_wire_field_t {
  uint32_t number;
  uint32_t wire;
  uint64_t varint;
  const uint8_t* bytes;
  size_t length;
} kiln_onnx_wire_field_t;

static bool kiln_onnx_read_varint(const uint8_t** p, const uint8_t* end,
                                  uint64_t* out) {
  uint64_t v = 0;
  int shift = 0;
  do {
    if (*p >= end || shift > 63) return false;
    v |= (uint64_t)(**p & 0x7f) << shift;
    shift += 7;
  } while (*(*p)++ & 0x80);
  *out = v;
  return true;
}

// Reads the field at |*p| and advances past it; false when malformed.
static bool kiln_onnx_wire_next(const uint8_t** p, const uint8_t* end,
                                kiln_onnx_wire_field_t* f) {
  uint64_t key = 0;
  if (!kiln_onnx_read_varint(p, end, &key) || (key >> 3) == 0 ||
      (key >> 3) > UINT32_MAX) {
    return false;
  }
  memset(f, 0, sizeof(*f));
  f->number = (uint32_t)(key >> 3);
  f->wire = (uint32_t)(key & 7);
  if (f->wire == 0) return kiln_onnx_read_varint(p, end, &f->varint);
  if (f->wire == 2) {
    uint64_t n = 0;
    if (!kiln_onnx_read_varint(p, end, &n) || n > (uint64_t)(end - *p)) {
      return false;
    }
    f->bytes = *p;
    f->length = (size_t)n;
    *p += n;
    return true;
  }
  if (f->wire == 1 || f->wire == 5) {
    size_t width = f->wire == 1 ? 8 : 4;
    if ((size_t)(end - *p) < width) return false;
    memcpy(&f->varint, *p, width);
    *p += width;
    return true;
  }
  return false;
}

// True when |p| is a sequence of well-formed protobuf fields that ends
// exactly at |end|.
static bool kiln_onnx_walks_as_fields(const uint8_t* p, const uint8_t* end) {
  while (p < end) {
    kiln_onnx_wire_field_t f;
    if (!kiln_onnx_wire_next(&p, end, &f)) return false;
  }
  return true;
}

// True when |p| walks as protobuf fields and holds a length-delimited field
// 7 (ModelProto.graph) that itself walks as fields (text seldom does both).
static bool kiln_onnx_walks_as_model(const uint8_t* p, const uint8_t* end) {
  bool has_graph = false;
  while (p < end) {
    kiln_onnx_wire_field_t f;
    if (!kiln_onnx_wire_next(&p, end, &f)) return false;
    if (f.number == 7 && f.wire == 2 &&
        kiln_onnx_walks_as_fields(f.bytes, f.bytes + f.length)) {
      has_graph = true;
    }
  }
  return has_graph;
}

bool kiln_onnx_is_model(const void* data, size_t length) {
  if (length < 2) return false;
  const uint8_t* p = (const uint8_t*)data;
  // ModelProto's ir_version (field 1, varint: tag 0x08) comes first in
  // every exporter's output; producer_name (0x12) and producer_version
  // (0x1a) are the other control bytes a model can start with. No MLIR text
  // starts with a control byte. Other field orders are recognized by the
  // whole buffer walking as protobuf fields with a graph.
  if (p[0] == 0x08 || p[0] == 0x12 || p[0] == 0x1a) return true;
  return kiln_onnx_walks_as_model(p, p + length);
}

bool kiln_onnx_should_import(const char* filename, const void* data,
                             size_t length) {
  size_t n = filename ? strlen(filename) : 0;
  // A .mlir file is text, whatever its bytes happen to walk as.
  if (n >= 5 && strcmp(filename + n - 5, ".mlir") == 0) return false;
  if (kiln_onnx_is_model(data, length)) return true;
  return n >= 5 && strcmp(filename + n - 5, ".onnx") == 0;
}

//===----------------------------------------------------------------------===//
// The importer
//===----------------------------------------------------------------------===//

typedef struct kiln_onnx_mapping_t {
  void* address;
  size_t length;
  struct kiln_onnx_mapping_t* next;
} kiln_onnx_mapping_t;

struct kiln_onnx_importer_t {
  kiln_ir_context_t* context;
  const char* filename;
  char* model_dir;  // malloc'd; "" for the current folder
  int64_t opset;
  // The ai.onnx.preview.training opset the model imports (-1: none).
  int64_t training_opset;
  kiln_ir_builder_t builder;
  // Open-addressing table of values by name (arena entries).
  kiln_onnx_value_t** table;
  size_t table_capacity;
  size_t table_count;
  // Declared types (graph outputs, value_info) by name.
  const char** declared_names;
  const kiln_ir_type_t** declared_types;
  size_t num_declared;
  kiln_onnx_mapping_t* mappings;  // external data, unmapped at the end
  // The node being lowered (for error messages).
  const Onnx__NodeProto* node;
  size_t node_index;
  const Onnx__GraphProto* graph;  // the graph being imported
  const char* inputs_like;        // options->inputs_like (NULL: none)
};

static uint64_t kiln_onnx_hash(const char* s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s) h = (h ^ (uint8_t)*s) * 1099511628211ull;
  return h;
}

static kiln_onnx_value_t* kiln_onnx_lookup(kiln_onnx_importer_t* im,
                                           const char* name) {
  if (!im->table_capacity) return NULL;
  size_t mask = im->table_capacity - 1;
  for (size_t i = kiln_onnx_hash(name) & mask;; i = (i + 1) & mask) {
    kiln_onnx_value_t* v = im->table[i];
    if (!v) return NULL;
    if (strcmp(v->name, name) == 0) return v;
  }
}

static kiln_status_t kiln_onnx_insert(kiln_onnx_importer_t* im,
                                      kiln_onnx_value_t* value) {
  if ((im->table_count + 1) * 2 > im->table_capacity) {
    size_t capacity = im->table_capacity ? im->table_capacity * 2 : 64;
    kiln_onnx_value_t** table = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
        im->context, capacity * sizeof(*table));
    if (!table) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                              "out of memory importing '%s'", im->filename);
    }
    memset(table, 0, capacity * sizeof(*table));
    for (size_t i = 0; i < im->table_capacity; ++i) {
      kiln_onnx_value_t* v = im->table[i];
      if (!v) continue;
      size_t j = kiln_onnx_hash(v->name) & (capacity - 1);
      while (table[j]) j = (j + 1) & (capacity - 1);
      table[j] = v;
    }
    im->table = table;
    im->table_capacity = capacity;
  }
  size_t mask = im->table_capacity - 1;
  size_t i = kiln_onnx_hash(value->name) & mask;
  while (im->table[i]) i = (i + 1) & mask;
  im->table[i] = value;
  ++im->table_count;
  return kiln_ok_status();
}

kiln_onnx_value_t* kiln_onnx_find_value(kiln_onnx_importer_t* im,
                                        const char* name) {
  return kiln_onnx_lookup(im, name);
}

const Onnx__NodeProto* kiln_onnx_sole_consumer(kiln_onnx_importer_t* im,
                                               const char* name) {
  const Onnx__GraphProto* g = im->graph;
  if (!g || !name || !name[0]) return NULL;
  for (size_t i = 0; i < g->n_output; ++i) {
    if (g->output[i]->name && !strcmp(g->output[i]->name, name)) return NULL;
  }
  const Onnx__NodeProto* found = NULL;
  for (size_t i = 0; i < g->n_node; ++i) {
    const Onnx__NodeProto* node = g->node[i];
    for (size_t j = 0; j < node->n_input; ++j) {
      if (!node->input[j] || strcmp(node->input[j], name)) continue;
      if (found) return NULL;
      found = node;
    }
  }
  return found;
}

// A node's name for messages: its name, else its first output's name
// (unique in the graph), else its index.
static const char* kiln_onnx_node_name(const kiln_onnx_importer_t* im,
                                       const Onnx__NodeProto* node,
                                       char* buffer, size_t size) {
  if (node->name && node->name[0]) return node->name;
  if (node->n_output && node->output[0] && node->output[0][0]) {
    return node->output[0];
  }
  snprintf(buffer, size, "#%zu", im->node_index);
  return buffer;
}

static kiln_status_t kiln_onnx_vnode_error(kiln_onnx_importer_t* im,
                                           kiln_status_code_t code,
                                           const char* format, va_list args) {
  char message[512];
  vsnprintf(message, sizeof(message), format, args);
  if (!im->node) {
    return kiln_make_status(code, "%s: %s", im->filename, message);
  }
  char name[160];
  return kiln_make_status(code, "%s: node '%s' (%s, opset %lld): %s",
                          im->filename,
                          kiln_onnx_node_name(im, im->node, name, sizeof(name)),
                          im->node->op_type ? im->node->op_type : "?",
                          (long long)im->opset, message);
}

static kiln_status_t kiln_onnx_error(kiln_onnx_importer_t* im,
                                     kiln_status_code_t code,
                                     const char* format, ...)
    __attribute__((format(printf, 3, 4)));
static kiln_status_t kiln_onnx_error(kiln_onnx_importer_t* im,
                                     kiln_status_code_t code,
                                     const char* format, ...) {
  va_list args;
  va_start(args, format);
  kiln_status_t status = kiln_onnx_vnode_error(im, code, format, args);
  va_end(args);
  return status;
}

const char* kiln_onnx_node_label(kiln_onnx_node_t* n, char* buffer,
                                 size_t size) {
  const kiln_onnx_importer_t* im = n->importer;
  char name[160];
  snprintf(buffer, size, "node '%s' (%s)",
           kiln_onnx_node_name(im, n->proto, name, sizeof(name)),
           n->proto->op_type ? n->proto->op_type : "?");
  return buffer;
}

kiln_status_t kiln_onnx_node_error(kiln_onnx_node_t* n, kiln_status_code_t code,
                                   const char* format, ...) {
  va_list args;
  va_start(args, format);
  kiln_status_t status = kiln_onnx_vnode_error(n->importer, code, format, args);
  va_end(args);
  return status;
}

//===----------------------------------------------------------------------===//
// Types and tensors
//===----------------------------------------------------------------------===//

const char* kiln_onnx_dtype_name(int32_t dtype) {
  static const char* const names[] = {
      "UNDEFINED",      "FLOAT",        "UINT8",          "INT8",
      "UINT16",         "INT16",        "INT32",          "INT64",
      "STRING",         "BOOL",         "FLOAT16",        "DOUBLE",
      "UINT32",         "UINT64",       "COMPLEX64",      "COMPLEX128",
      "BFLOAT16",       "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
      "FLOAT8E5M2FNUZ", "UINT4",        "INT4",           "FLOAT4E2M1"};
  if (dtype >= 0 && (size_t)dtype < sizeof(names) / sizeof(names[0])) {
    return names[dtype];
  }
  return "unknown";
}

const kiln_ir_type_t* kiln_onnx_element_type(kiln_ir_context_t* context,
                                             int32_t dtype) {
  switch (dtype) {
    case 1:
      return kiln_ir_float_type_get(context, KILN_IR_F32);
    case 2:
      return kiln_ir_integer_type_get(context, 8, KILN_IR_UNSIGNED);
    case 3:
      return kiln_ir_int_type(context, 8);
    case 4:
      return kiln_ir_integer_type_get(context, 16, KILN_IR_UNSIGNED);
    case 5:
      return kiln_ir_int_type(context, 16);
    case 6:
      return kiln_ir_int_type(context, 32);
    case 7:
      return kiln_ir_int_type(context, 64);
    case 9:
      return kiln_ir_int_type(context, 1);
    case 10:
      return kiln_ir_float_type_get(context, KILN_IR_F16);
    case 11:
      return kiln_ir_float_type_get(context, KILN_IR_F64);
    case 12:
      return kiln_ir_integer_type_get(context, 32, KILN_IR_UNSIGNED);
    case 13:
      return kiln_ir_integer_type_get(context, 64, KILN_IR_UNSIGNED);
    case 14:
      return kiln_ir_complex_type_get(
          context, kiln_ir_float_type_get(context, KILN_IR_F32));
    case 15:
      return kiln_ir_complex_type_get(
          context, kiln_ir_float_type_get(context, KILN_IR_F64));
    case 16:
      return kiln_ir_float_type_get(context, KILN_IR_BF16);
    default:
      return NULL;
  }
}

kiln_onnx_const_t* kiln_onnx_make_const(kiln_ir_context_t* context,
                                        const kiln_ir_type_t* type,
                                        const void* data, size_t size) {
  kiln_onnx_const_t* c =
      (kiln_onnx_const_t*)kiln_ir_arena_alloc(context, sizeof(*c));
  if (!c) return NULL;
  c->type = type;
  c->size = size;
  c->data = size ? (const uint8_t*)kiln_ir_arena_dup(context, data, size)
                 : (const uint8_t*)"";
  if (!c->data) return NULL;
  return c;
}

// Joins the model folder and |location|, refusing absolute paths and any
// ".." component (external data must stay inside the model's folder).
static kiln_status_t kiln_onnx_external_path(kiln_onnx_importer_t* im,
                                             const char* what,
                                             const char* location, char* out,
                                             size_t out_size) {
  if (!location || !location[0]) {
    return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                           "%s: external data has no location", what);
  }
  bool escapes = location[0] == '/';
  for (const char* p = location; *p && !escapes;) {
    const char* end = strchr(p, '/');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 2 && p[0] == '.' && p[1] == '.') escapes = true;
    p += len;
    if (*p == '/') ++p;
  }
  if (escapes) {
    return kiln_onnx_error(
        im, KILN_STATUS_PERMISSION_DENIED,
        "%s: external data location '%s' is outside the model's folder", what,
        location);
  }
  int written = snprintf(out, out_size, "%s%s", im->model_dir, location);
  if (written < 0 || (size_t)written >= out_size) {
    return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                           "%s: external data location is too long", what);
  }
  return kiln_ok_status();
}

static bool kiln_onnx_parse_u64(const char* s, uint64_t* out) {
  if (!s || !*s) return false;
  uint64_t v = 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return false;
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + (uint64_t)(*s - '0');
  }
  *out = v;
  return true;
}

// Maps |size| bytes of a tensor's external data (the file is mapped, not
// read; the mapping lives until the import ends).
static kiln_status_t kiln_onnx_map_external(kiln_onnx_importer_t* im,
                                            const Onnx__TensorProto* t,
                                            const char* what, size_t size,
                                            const uint8_t** out_data) {
  const char* location = NULL;
  uint64_t offset = 0, length = UINT64_MAX;
  for (size_t i = 0; i < t->n_external_data; ++i) {
    const Onnx__StringStringEntryProto* e = t->external_data[i];
    if (!e->key) continue;
    if (!strcmp(e->key, "location")) {
      location = e->value;
    } else if (!strcmp(e->key, "offset")) {
      if (!kiln_onnx_parse_u64(e->value, &offset)) {
        return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                               "%s: external data offset '%s' is not a number",
                               what, e->value ? e->value : "");
      }
    } else if (!strcmp(e->key, "length")) {
      if (!kiln_onnx_parse_u64(e->value, &length)) {
        return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                               "%s: external data length '%s' is not a number",
                               what, e->value ? e->value : "");
      }
    }
  }
  char path[4096];
  KILN_RETURN_IF_ERROR(
      kiln_onnx_external_path(im, what, location, path, sizeof(path)));
  if (length == UINT64_MAX) length = size;
  if (length != size) {
    return kiln_onnx_error(
        im, KILN_STATUS_INVALID_ARGUMENT,
        "%s: external data length %llu does not match its shape (%zu bytes)",
        what, (unsigned long long)length, size);
  }
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    return kiln_onnx_error(im, KILN_STATUS_NOT_FOUND,
                           "%s: cannot open external data file '%s'", what,
                           path);
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                           "%s: external data '%s' is not a regular file", what,
                           path);
  }
  uint64_t file_size = (uint64_t)st.st_size;
  if (offset > file_size || length > file_size - offset) {
    close(fd);
    return kiln_onnx_error(
        im, KILN_STATUS_OUT_OF_RANGE,
        "%s: external data range [%llu, %llu) is past the end of '%s' (%llu "
        "bytes)",
        what, (unsigned long long)offset, (unsigned long long)(offset + length),
        path, (unsigned long long)file_size);
  }
  if (size == 0) {
    close(fd);
    *out_data = (const uint8_t*)"";
    return kiln_ok_status();
  }
  long page = sysconf(_SC_PAGESIZE);
  uint64_t aligned = offset - offset % (uint64_t)(page > 0 ? page : 4096);
  size_t map_length = (size_t)(offset - aligned) + size;
  void* address =
      mmap(NULL, map_length, PROT_READ, MAP_PRIVATE, fd, (off_t)aligned);
  close(fd);
  if (address == MAP_FAILED) {
    return kiln_onnx_error(im, KILN_STATUS_UNAVAILABLE,
                           "%s: cannot map external data '%s'", what, path);
  }
  kiln_onnx_mapping_t* m = (kiln_onnx_mapping_t*)malloc(sizeof(*m));
  if (!m) {
    munmap(address, map_length);
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  m->address = address;
  m->length = map_length;
  m->next = im->mappings;
  im->mappings = m;
  *out_data = (const uint8_t*)address + (offset - aligned);
  return kiln_ok_status();
}

kiln_status_t kiln_onnx_read_tensor(kiln_onnx_importer_t* im,
                                    const Onnx__TensorProto* t,
                                    const char* what,
                                    kiln_onnx_const_t** out_const) {
  kiln_ir_context_t* ctx = im->context;
  int32_t dtype = t->has_data_type ? t->data_type : 0;
  const kiln_ir_type_t* element = kiln_onnx_element_type(ctx, dtype);
  if (!element) {
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "%s: data type %d (%s) is not supported", what,
                           (int)dtype, kiln_onnx_dtype_name(dtype));
  }
  if (t->n_dims > KILN_ONNX_MAX_RANK) {
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "%s: rank %zu is above the supported %d", what,
                           t->n_dims, KILN_ONNX_MAX_RANK);
  }
  uint64_t count = 1;
  for (size_t i = 0; i < t->n_dims; ++i) {
    if (t->dims[i] < 0 ||
        (t->dims[i] > 0 &&
         count > (UINT64_C(1) << 40) / (uint64_t)t->dims[i])) {
      return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                             "%s: invalid dimension %lld", what,
                             (long long)t->dims[i]);
    }
    count *= (uint64_t)t->dims[i];
  }
  size_t elem_bytes = kiln_ir_type_storage_bytes(element);
  size_t size = (size_t)count * elem_bytes;
  const kiln_ir_type_t* type =
      kiln_ir_tensor_type_get(ctx, t->n_dims, t->dims, element, NULL);
  const uint8_t* data = NULL;
  uint8_t* converted = NULL;
  bool in_arena = false;
  if (t->has_data_location &&
      t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) {
    KILN_RETURN_IF_ERROR(kiln_onnx_map_external(im, t, what, size, &data));
  } else if (t->has_raw_data) {
    if (t->raw_data.len != size) {
      return kiln_onnx_error(
          im, KILN_STATUS_INVALID_ARGUMENT,
          "%s: raw_data holds %zu bytes but its shape needs %zu", what,
          t->raw_data.len, size);
    }
    data = t->raw_data.data ? t->raw_data.data : (const uint8_t*)"";
    in_arena = true;  // the model is unpacked there (kiln_onnx_import)
  } else {
    // Typed fields: the field and its width depend on the data type.
    size_t have = 0;
    switch (dtype) {
      case 1:
      case 14:
        have = t->n_float_data;
        break;
      case 11:
      case 15:
        have = t->n_double_data;
        break;
      case 7:
        have = t->n_int64_data;
        break;
      case 12:
      case 13:
        have = t->n_uint64_data;
        break;
      default:
        have = t->n_int32_data;
        break;
    }
    size_t need = (size_t)count * (dtype == 14 || dtype == 15 ? 2 : 1);
    if (have != need) {
      return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                             "%s: holds %zu values but its shape needs %zu",
                             what, have, need);
    }
    converted = (uint8_t*)kiln_ir_arena_alloc(ctx, size ? size : 1);
    if (!converted) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    for (size_t i = 0; i < need; ++i) {
      switch (dtype) {
        case 1:
        case 14:
          memcpy(converted + i * 4, &t->float_data[i], 4);
          break;
        case 11:
        case 15:
          memcpy(converted + i * 8, &t->double_data[i], 8);
          break;
        case 7:
          memcpy(converted + i * 8, &t->int64_data[i], 8);
          break;
        case 12: {
          uint32_t v = (uint32_t)t->uint64_data[i];
          memcpy(converted + i * 4, &v, 4);
          break;
        }
        case 13:
          memcpy(converted + i * 8, &t->uint64_data[i], 8);
          break;
        case 6:
          memcpy(converted + i * 4, &t->int32_data[i], 4);
          break;
        case 4:
        case 5:
        case 10:
        case 16: {
          uint16_t v = (uint16_t)t->int32_data[i];
          memcpy(converted + i * 2, &v, 2);
          break;
        }
        case 9:
          converted[i] = t->int32_data[i] != 0;
          break;
        default:
          converted[i] = (uint8_t)t->int32_data[i];
          break;
      }
    }
    data = converted;
    in_arena = true;
  }
  kiln_onnx_const_t* c =
      (kiln_onnx_const_t*)kiln_ir_arena_alloc(ctx, sizeof(*c));
  if (!c)
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  c->type = type;
  c->data = data;
  c->size = size;
  c->in_arena = in_arena;
  *out_const = c;
  return kiln_ok_status();
}

// The tensor type of a ValueInfoProto; NULL |*out_type| when it states no
// tensor type. Symbolic or missing dims are refused for now.
static kiln_status_t kiln_onnx_value_info_type(
    kiln_onnx_importer_t* im, const Onnx__ValueInfoProto* vi, bool required,
    const kiln_ir_type_t** out_type) {
  *out_type = NULL;
  const char* name = vi->name ? vi->name : "";
  const Onnx__TypeProto* tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) {
    if (!required) return kiln_ok_status();
    const char* kind = "untyped";
    if (tp) {
      switch (tp->value_case) {
        case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
          kind = "sequence-typed";
          break;
        case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
          kind = "map-typed";
          break;
        case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
          kind = "optional-typed";
          break;
        case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
          kind = "sparse-tensor";
          break;
        default:
          break;
      }
    }
    if (tp && (tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE ||
               tp->value_case == ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE)) {
      return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                             "'%s': %s graph inputs need a sample input to "
                             "give their length or presence "
                             "(kiln-import-onnx --inputs-like=DIR)",
                             name, kind);
    }
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "'%s': %s values are not supported", name, kind);
  }
  const Onnx__TypeProto__Tensor* tt = tp->tensor_type;
  int32_t dtype = tt->has_elem_type ? tt->elem_type : 0;
  const kiln_ir_type_t* element = kiln_onnx_element_type(im->context, dtype);
  if (!element) {
    if (!required) return kiln_ok_status();
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "'%s': element type %d (%s) is not supported", name,
                           (int)dtype, kiln_onnx_dtype_name(dtype));
  }
  if (!tt->shape) {
    if (!required) return kiln_ok_status();
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "'%s': values of unknown rank are not supported",
                           name);
  }
  if (tt->shape->n_dim > KILN_ONNX_MAX_RANK) {
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "'%s': rank %zu is above the supported %d", name,
                           tt->shape->n_dim, KILN_ONNX_MAX_RANK);
  }
  int64_t dims[KILN_ONNX_MAX_RANK];
  for (size_t i = 0; i < tt->shape->n_dim; ++i) {
    const Onnx__TensorShapeProto__Dimension* d = tt->shape->dim[i];
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
        d->dim_value >= 0) {
      dims[i] = d->dim_value;
    } else {
      if (!required) return kiln_ok_status();
      if (d->value_case ==
          ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM) {
        return kiln_onnx_error(
            im, KILN_STATUS_UNIMPLEMENTED,
            "'%s': symbolic dimension '%s' (dim %zu) is not supported yet",
            name, d->dim_param ? d->dim_param : "", i);
      }
      return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                             "'%s': unknown dimension %zu is not supported yet",
                             name, i);
    }
  }
  *out_type = kiln_ir_tensor_type_get(im->context, tt->shape->n_dim, dims,
                                      element, NULL);
  return kiln_ok_status();
}

const char* kiln_onnx_kind_name(kiln_onnx_kind_t kind) {
  switch (kind) {
    case KILN_ONNX_KIND_SEQUENCE:
      return "sequence";
    case KILN_ONNX_KIND_OPTIONAL:
      return "optional";
    default:
      return "tensor";
  }
}

void kiln_onnx_flatten(kiln_onnx_value_t* v, kiln_onnx_value_t** out,
                       size_t* count) {
  if (v->kind == KILN_ONNX_KIND_TENSOR) {
    if (out) out[*count] = v;
    ++*count;
    return;
  }
  for (size_t i = 0; i < v->num_items; ++i) {
    kiln_onnx_flatten(&v->items[i], out, count);
  }
}

bool kiln_onnx_same_structure(const kiln_onnx_value_t* a,
                              const kiln_onnx_value_t* b) {
  if (a->kind != b->kind) return false;
  if (a->kind == KILN_ONNX_KIND_TENSOR) return a->type == b->type;
  if (a->num_items != b->num_items) return false;
  for (size_t i = 0; i < a->num_items; ++i) {
    if (!kiln_onnx_same_structure(&a->items[i], &b->items[i])) return false;
  }
  return true;
}

kiln_status_t kiln_onnx_unflatten(kiln_ir_context_t* context,
                                  const kiln_onnx_value_t* like,
                                  kiln_onnx_value_t* const* tensors,
                                  size_t* next, kiln_onnx_value_t* out) {
  const char* name = out->name;
  if (like->kind == KILN_ONNX_KIND_TENSOR) {
    *out = *tensors[(*next)++];
    out->name = name;
    return kiln_ok_status();
  }
  *out = *like;
  out->name = name;
  out->items = NULL;
  if (like->num_items) {
    out->items = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
        context, like->num_items * sizeof(*out->items));
    if (!out->items) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    memset(out->items, 0, like->num_items * sizeof(*out->items));
  }
  for (size_t i = 0; i < like->num_items; ++i) {
    out->items[i].name = like->items[i].name;
    KILN_RETURN_IF_ERROR(kiln_onnx_unflatten(context, &like->items[i], tensors,
                                             next, &out->items[i]));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_onnx_materialize(kiln_onnx_node_t* n, kiln_onnx_value_t* v,
                                    kiln_ir_value_t** out_value) {
  if (v->kind != KILN_ONNX_KIND_TENSOR) {
    return kiln_onnx_node_error(n, KILN_STATUS_INVALID_ARGUMENT,
                                "'%s' is a %s where a tensor is needed",
                                v->name, kiln_onnx_kind_name(v->kind));
  }
  if (v->ir) {
    *out_value = v->ir;
    return kiln_ok_status();
  }
  if (!v->known) {
    return kiln_onnx_node_error(n, KILN_STATUS_INTERNAL,
                                "value '%s' has no definition", v->name);
  }
  kiln_ir_context_t* ctx = n->context;
  const kiln_onnx_const_t* c = v->known;
  const kiln_ir_attribute_t* value =
      c->in_arena ? kiln_ir_dense_elements_attr_get_borrowed(
                        ctx, c->type, false, c->data, c->size)
                  : kiln_ir_dense_elements_attr_get(ctx, c->type, false,
                                                    c->data, c->size);
  if (!value) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  kiln_ir_named_attribute_t attr = kiln_ir_named_attr(ctx, "value", value);
  kiln_ir_op_t* op = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_builder_create_simple(
      n->b, "stablehlo.constant", 0, NULL, 1, &c->type, 1, &attr, &op));
  v->ir = kiln_ir_op_result(op, 0);
  *out_value = v->ir;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Graph inputs specialized on sample data (options->inputs_like)
//===----------------------------------------------------------------------===//

// The type of the TensorProto |bytes| (a sample input: its data is not
// read), checked against the declared tensor type |tt| where it states one.
static kiln_status_t kiln_onnx_sample_tensor(kiln_onnx_importer_t* im,
                                             const Onnx__TypeProto__Tensor* tt,
                                             const char* name, const char* path,
                                             const uint8_t* bytes,
                                             size_t length,
                                             kiln_onnx_value_t* v) {
  Onnx__TensorProto* t = onnx__tensor_proto__unpack(NULL, length, bytes);
  if (!t) {
    return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                           "'%s': '%s' is not a valid TensorProto", name, path);
  }
  kiln_status_t status = kiln_ok_status();
  int32_t dtype = t->has_data_type ? t->data_type : 0;
  const kiln_ir_type_t* element = kiln_onnx_element_type(im->context, dtype);
  if (!element) {
    status = kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                             "'%s': element type %d (%s) is not supported",
                             name, (int)dtype, kiln_onnx_dtype_name(dtype));
  } else if (tt && tt->has_elem_type && tt->elem_type != dtype) {
    status = kiln_onnx_error(
        im, KILN_STATUS_INVALID_ARGUMENT,
        "'%s': '%s' holds %s data but the graph declares %s", name, path,
        kiln_onnx_dtype_name(dtype), kiln_onnx_dtype_name(tt->elem_type));
  } else if (t->n_dims > KILN_ONNX_MAX_RANK ||
             (tt && tt->shape && tt->shape->n_dim != t->n_dims)) {
    status = kiln_onnx_error(
        im, KILN_STATUS_INVALID_ARGUMENT,
        "'%s': '%s' holds a rank-%zu tensor, not the declared rank", name, path,
        t->n_dims);
  }
  for (size_t d = 0; !status && d < t->n_dims; ++d) {
    const Onnx__TensorShapeProto__Dimension* dim =
        tt && tt->shape ? tt->shape->dim[d] : NULL;
    bool fixed =
        dim &&
        dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    if (t->dims[d] < 0 || (fixed && dim->dim_value != t->dims[d])) {
      status = kiln_onnx_error(
          im, KILN_STATUS_INVALID_ARGUMENT,
          "'%s': '%s' has %lld in dim %zu where the graph declares %lld", name,
          path, (long long)t->dims[d], d,
          (long long)(fixed ? dim->dim_value : -1));
    }
  }
  if (!status) {
    v->kind = KILN_ONNX_KIND_TENSOR;
    v->type =
        kiln_ir_tensor_type_get(im->context, t->n_dims, t->dims, element, NULL);
  }
  onnx__tensor_proto__free_unpacked(t, NULL);
  return status;
}

static kiln_status_t kiln_onnx_sample_value(kiln_onnx_importer_t* im,
                                            const Onnx__TypeProto* tp,
                                            const char* name, const char* path,
                                            const uint8_t* bytes, size_t length,
                                            kiln_onnx_value_t* v);

// A SequenceProto (tensor_values: field 3) or OptionalProto (tensor_value:
// field 3, sequence_value: field 5) sample: its elements' types.
static kiln_status_t kiln_onnx_sample_container(
    kiln_onnx_importer_t* im, const Onnx__TypeProto* tp, const char* name,
    const char* path, const uint8_t* bytes, size_t length,
    kiln_onnx_value_t* v) {
  bool sequence = tp->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
  const Onnx__TypeProto* elem =
      sequence ? tp->sequence_type->elem_type : tp->optional_type->elem_type;
  size_t count = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const uint8_t* p = bytes;
    size_t k = 0;
    while (p < bytes + length) {
      kiln_onnx_wire_field_t f;
      if (!kiln_onnx_wire_next(&p, bytes + length, &f)) {
        return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                               "'%s': '%s' is not a valid %s", name, path,
                               sequence ? "SequenceProto" : "OptionalProto");
      }
      if (f.wire != 2 || f.number < 3) continue;  // name, elem_type
      bool item = f.number == 3 || (!sequence && f.number == 5);
      if (!item) {
        return kiln_onnx_error(
            im, KILN_STATUS_UNIMPLEMENTED,
            "'%s': '%s' holds sparse tensors, maps or nested optionals", name,
            path);
      }
      if (pass == 0) {
        ++count;
        continue;
      }
      Onnx__TypeProto tensor_type;
      const Onnx__TypeProto* item_type = elem;
      if (!item_type ||
          (f.number == 3 &&
           item_type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)) {
        // Untyped element: any tensor.
        onnx__type_proto__init(&tensor_type);
        tensor_type.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
        tensor_type.tensor_type = NULL;
        item_type = f.number == 3 ? &tensor_type : item_type;
      }
      const char* item_name =
          sequence ? kiln_ir_arena_printf(im->context, "%s[%zu]", name, k)
                   : name;
      if (!item_name) {
        return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory");
      }
      v->items[k].name = item_name;
      if (f.number == 3) {
        KILN_RETURN_IF_ERROR(kiln_onnx_sample_tensor(im, item_type->tensor_type,
                                                     item_name, path, f.bytes,
                                                     f.length, &v->items[k]));
      } else {
        if (!item_type ||
            item_type->value_case != ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE) {
          return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                                 "'%s': '%s' holds a sequence; the graph "
                                 "declares another type",
                                 name, path);
        }
        KILN_RETURN_IF_ERROR(kiln_onnx_sample_value(
            im, item_type, item_name, path, f.bytes, f.length, &v->items[k]));
      }
      ++k;
    }
    if (pass == 0) {
      if (!sequence && count > 1) {
        return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                               "'%s': '%s' holds %zu values, an optional one",
                               name, path, count);
      }
      v->kind = sequence ? KILN_ONNX_KIND_SEQUENCE : KILN_ONNX_KIND_OPTIONAL;
      v->num_items = count;
      v->items = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
          im->context, (count + 1) * sizeof(*v->items));
      if (!v->items) {
        return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                                "out of memory");
      }
      memset(v->items, 0, (count + 1) * sizeof(*v->items));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_onnx_sample_value(kiln_onnx_importer_t* im,
                                            const Onnx__TypeProto* tp,
                                            const char* name, const char* path,
                                            const uint8_t* bytes, size_t length,
                                            kiln_onnx_value_t* v) {
  switch (tp->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
      return kiln_onnx_sample_tensor(im, tp->tensor_type, name, path, bytes,
                                     length, v);
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
      return kiln_onnx_sample_container(im, tp, name, path, bytes, length, v);
    default:
      return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                             "'%s': map and sparse-tensor values are not "
                             "supported",
                             name);
  }
}

// Graph input |index| (counting those that are not initializers) as a
// value: its declared static tensor type, else (symbolic dims, sequences,
// optionals) the type, length or presence of the sample file
// <inputs_like>/input_<index>.pb.
static kiln_status_t kiln_onnx_input_value(kiln_onnx_importer_t* im,
                                           const Onnx__ValueInfoProto* vi,
                                           size_t index, kiln_onnx_value_t* v) {
  const kiln_ir_type_t* type = NULL;
  KILN_RETURN_IF_ERROR(kiln_onnx_value_info_type(im, vi, false, &type));
  if (type) {
    v->type = type;
    return kiln_ok_status();
  }
  const Onnx__TypeProto* tp = vi->type;
  if (!im->inputs_like || !tp ||
      (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE &&
       tp->value_case != ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE &&
       tp->value_case != ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE)) {
    // The declared type's own error.
    return kiln_onnx_value_info_type(im, vi, true, &type);
  }
  char* path = kiln_ir_arena_printf(im->context, "%s/input_%zu.pb",
                                    im->inputs_like, index);
  if (!path)
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  FILE* file = fopen(path, "rb");
  if (!file) {
    return kiln_onnx_error(im, KILN_STATUS_NOT_FOUND,
                           "'%s': no sample input '%s' (the graph does not "
                           "state its type, length or presence)",
                           vi->name, path);
  }
  uint8_t* bytes = NULL;
  size_t length = 0, capacity = 0;
  kiln_status_t status = kiln_ok_status();
  for (;;) {
    if (length == capacity) {
      capacity = capacity ? capacity * 2 : 4096;
      uint8_t* grown = (uint8_t*)realloc(bytes, capacity);
      if (!grown) {
        status =
            kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        break;
      }
      bytes = grown;
    }
    size_t got = fread(bytes + length, 1, capacity - length, file);
    length += got;
    if (got == 0) break;
  }
  fclose(file);
  if (!status) {
    status = kiln_onnx_sample_value(im, tp, vi->name, path, bytes, length, v);
  }
  free(bytes);
  return status;
}

//===----------------------------------------------------------------------===//
// The graph walk
//===----------------------------------------------------------------------===//

static kiln_onnx_value_t* kiln_onnx_new_value(kiln_onnx_importer_t* im,
                                              const char* name) {
  kiln_onnx_value_t* v =
      (kiln_onnx_value_t*)kiln_ir_arena_alloc(im->context, sizeof(*v));
  if (!v) return NULL;
  memset(v, 0, sizeof(*v));
  v->name = kiln_ir_arena_printf(im->context, "%s", name);
  return v->name ? v : NULL;
}

static const kiln_ir_type_t* kiln_onnx_declared_type(kiln_onnx_importer_t* im,
                                                     const char* name) {
  for (size_t i = 0; i < im->num_declared; ++i) {
    if (!strcmp(im->declared_names[i], name)) return im->declared_types[i];
  }
  return NULL;
}

static const kiln_onnx_op_entry_t* kiln_onnx_find_op(const char* op_type,
                                                     int64_t opset,
                                                     int* out_min_since) {
  const kiln_onnx_op_entry_t* best = NULL;
  *out_min_since = 0;
  for (const kiln_onnx_op_entry_t* e = kiln_onnx_op_table; e->op_type; ++e) {
    if (strcmp(e->op_type, op_type) != 0) continue;
    if (!*out_min_since || e->since_version < *out_min_since) {
      *out_min_since = e->since_version;
    }
    if (e->since_version <= opset &&
        (!best || e->since_version > best->since_version)) {
      best = e;
    }
  }
  return best;
}

// True when |a| and |b| agree wherever |declared| states a static dim.
static bool kiln_onnx_type_matches(const kiln_ir_type_t* computed,
                                   const kiln_ir_type_t* declared) {
  if (computed == declared) return true;
  if (computed->shaped.element != declared->shaped.element) return false;
  if (computed->shaped.rank != declared->shaped.rank) return false;
  for (size_t i = 0; i < computed->shaped.rank; ++i) {
    if (declared->shaped.dims[i] != KILN_IR_DYNAMIC_DIM &&
        declared->shaped.dims[i] != computed->shaped.dims[i]) {
      return false;
    }
  }
  return true;
}

// Ops that read sequence or optional inputs; every other op is given
// tensors only.
static bool kiln_onnx_takes_containers(const char* op_type) {
  static const char* const ops[] = {"Identity",
                                    "If",
                                    "Loop",
                                    "SequenceAt",
                                    "SequenceErase",
                                    "SequenceInsert",
                                    "SequenceLength",
                                    "SequenceMap",
                                    "ConcatFromSequence",
                                    "Optional",
                                    "OptionalGetElement",
                                    "OptionalHasElement"};
  for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); ++i) {
    if (!strcmp(ops[i], op_type)) return true;
  }
  return false;
}

static kiln_status_t kiln_onnx_lower_node(kiln_onnx_importer_t* im,
                                          const Onnx__NodeProto* node) {
  kiln_ir_context_t* ctx = im->context;
  im->node = node;
  if (!node->op_type || !node->op_type[0]) {
    return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                           "node has no op type");
  }
  // Ops of ai.onnx.preview.training are listed as "<domain>.<op>" so that
  // they never shadow (or are shadowed by) ai.onnx ops of the same name.
  const char* op_key = node->op_type;
  int64_t op_opset = im->opset;
  if (node->domain && !strcmp(node->domain, "ai.onnx.preview.training") &&
      im->training_opset >= 0) {
    op_key = kiln_ir_arena_printf(ctx, "%s.%s", node->domain, node->op_type);
    if (!op_key) {
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    op_opset = im->training_opset;
  } else if (node->domain && node->domain[0] &&
             strcmp(node->domain, "ai.onnx")) {
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "ops of domain '%s' are not supported",
                           node->domain);
  }
  int min_since = 0;
  const kiln_onnx_op_entry_t* entry =
      kiln_onnx_find_op(op_key, op_opset, &min_since);
  if (!entry) {
    if (min_since) {
      return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                             "no lowering for this opset (the importer "
                             "supports %s from opset %d)",
                             node->op_type, min_since);
    }
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "the op is not supported by the importer yet");
  }
  kiln_onnx_node_t n;
  memset(&n, 0, sizeof(n));
  n.importer = im;
  n.context = ctx;
  n.b = &im->builder;
  n.proto = node;
  n.opset = im->opset;
  n.num_inputs = node->n_input;
  n.inputs = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
      ctx, (node->n_input + 1) * sizeof(*n.inputs));
  n.num_outputs = node->n_output;
  n.outputs = (kiln_onnx_value_t*)kiln_ir_arena_alloc(
      ctx, (node->n_output + 1) * sizeof(*n.outputs));
  n.declared = (const kiln_ir_type_t**)kiln_ir_arena_alloc(
      ctx, (node->n_output + 1) * sizeof(*n.declared));
  if (!n.inputs || !n.outputs || !n.declared) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (size_t i = 0; i < node->n_input; ++i) {
    const char* name = node->input[i];
    if (!name || !name[0]) {
      n.inputs[i] = NULL;  // an omitted optional input
      continue;
    }
    n.inputs[i] = kiln_onnx_lookup(im, name);
    if (!n.inputs[i]) {
      return kiln_onnx_error(
          im, KILN_STATUS_INVALID_ARGUMENT,
          "input '%s' is never defined before this node (undefined, or the "
          "graph has a cycle or is not topologically sorted)",
          name);
    }
    if (n.inputs[i]->kind != KILN_ONNX_KIND_TENSOR &&
        !kiln_onnx_takes_containers(node->op_type)) {
      return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                             "input '%s' is a %s; the op takes tensors", name,
                             kiln_onnx_kind_name(n.inputs[i]->kind));
    }
  }
  for (size_t i = 0; i < node->n_output; ++i) {
    memset(&n.outputs[i], 0, sizeof(n.outputs[i]));
    const char* name = node->output[i] ? node->output[i] : "";
    n.outputs[i].name = name;
    n.declared[i] = name[0] ? kiln_onnx_declared_type(im, name) : NULL;
  }
  const char* node_name = node->name && node->name[0]         ? node->name
                          : node->n_output && node->output[0] ? node->output[0]
                                                              : node->op_type;
  im->builder.location = kiln_ir_location_name(
      ctx, kiln_make_cstring_view(node_name),
      kiln_ir_location_file(ctx, kiln_make_cstring_view(im->filename), 0, 0));
  KILN_RETURN_IF_ERROR(entry->lower(&n));
  for (size_t i = 0; i < node->n_output; ++i) {
    kiln_onnx_value_t* out = &n.outputs[i];
    if (!out->name[0]) continue;
    if (out->kind == KILN_ONNX_KIND_TENSOR &&
        (!out->type || (!out->ir && !out->known))) {
      // Optional outputs the lowering does not produce (Dropout's mask,
      // ...) are an error only if something uses them (reported there).
      continue;
    }
    if (n.declared[i] && out->kind == KILN_ONNX_KIND_TENSOR &&
        !kiln_onnx_type_matches(out->type, n.declared[i])) {
      return kiln_onnx_error(
          im, KILN_STATUS_INTERNAL,
          "output '%s' was computed as %s but the graph declares %s", out->name,
          kiln_ir_type_to_string(ctx, out->type),
          kiln_ir_type_to_string(ctx, n.declared[i]));
    }
    if (kiln_onnx_lookup(im, out->name)) {
      return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                             "output '%s' is already defined", out->name);
    }
    kiln_onnx_value_t* v = kiln_onnx_new_value(im, out->name);
    if (!v)
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    const char* stored_name = v->name;
    *v = *out;
    v->name = stored_name;
    KILN_RETURN_IF_ERROR(kiln_onnx_insert(im, v));
  }
  im->node = NULL;
  return kiln_ok_status();
}

kiln_status_t kiln_onnx_import_subgraph(kiln_onnx_node_t* n,
                                        const Onnx__GraphProto* graph,
                                        size_t num_inputs,
                                        const kiln_onnx_value_t* inputs,
                                        size_t num_outputs,
                                        kiln_onnx_value_t* outputs) {
  kiln_onnx_importer_t* im = n->importer;
  if (graph->n_input != num_inputs || graph->n_output != num_outputs) {
    return kiln_onnx_node_error(
        n, KILN_STATUS_INVALID_ARGUMENT,
        "the body graph has %zu inputs and %zu outputs; the op needs %zu and "
        "%zu",
        graph->n_input, graph->n_output, num_inputs, num_outputs);
  }
  if (graph->n_initializer || graph->n_sparse_initializer) {
    return kiln_onnx_node_error(n, KILN_STATUS_UNIMPLEMENTED,
                                "initializers in a body graph are not "
                                "supported");
  }
  // The scope: a copy of the table whose entries are copies of the values,
  // so that what the body defines, or materializes of an outer constant
  // (at the body's insertion point), never leaks out.
  kiln_onnx_value_t** saved_table = im->table;
  size_t saved_capacity = im->table_capacity, saved_count = im->table_count;
  const Onnx__NodeProto* saved_node = im->node;
  size_t saved_index = im->node_index;
  const kiln_ir_location_t* saved_location = im->builder.location;
  size_t capacity = saved_capacity ? saved_capacity : 64;
  kiln_onnx_value_t** table = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
      im->context, capacity * sizeof(*table));
  if (!table)
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  memset(table, 0, capacity * sizeof(*table));
  for (size_t i = 0; i < saved_capacity; ++i) {
    if (!saved_table[i]) continue;
    table[i] = kiln_onnx_new_value(im, saved_table[i]->name);
    if (!table[i])
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    *table[i] = *saved_table[i];
  }
  im->table = table;
  im->table_capacity = capacity;
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < num_inputs && !status; ++i) {
    const char* name = graph->input[i]->name ? graph->input[i]->name : "";
    kiln_onnx_value_t* v = kiln_onnx_lookup(im, name);
    if (!v) {
      v = kiln_onnx_new_value(im, name);
      status =
          v ? kiln_onnx_insert(im, v)
            : kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    }
    if (!status) {
      const char* stored_name = v->name;
      *v = inputs[i];
      v->name = stored_name;
      v->absorbed = NULL;
    }
  }
  for (size_t i = 0; i < graph->n_node && !status; ++i) {
    im->node_index = i;
    status = kiln_onnx_lower_node(im, graph->node[i]);
  }
  for (size_t i = 0; i < num_outputs && !status; ++i) {
    const char* name = graph->output[i]->name ? graph->output[i]->name : "";
    kiln_onnx_value_t* v = kiln_onnx_lookup(im, name);
    if (!v || (v->kind == KILN_ONNX_KIND_TENSOR && !v->type)) {
      status = kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                               "body output '%s' is never defined", name);
    } else {
      outputs[i] = *v;
    }
  }
  im->table = saved_table;
  im->table_capacity = saved_capacity;
  im->table_count = saved_count;
  im->node = saved_node;
  im->node_index = saved_index;
  im->builder.location = saved_location;
  return status;
}

// MLIR symbol names need no quoting for [A-Za-z_][A-Za-z0-9_$.]*; the
// printer quotes the rest, so the graph name is used as is.
static const char* kiln_onnx_function_name(const Onnx__GraphProto* graph) {
  return graph->name && graph->name[0] ? graph->name : "main";
}

static kiln_status_t kiln_onnx_import_graph(kiln_onnx_importer_t* im,
                                            const Onnx__GraphProto* graph,
                                            kiln_ir_op_t** out_module) {
  kiln_ir_context_t* ctx = im->context;
  im->graph = graph;
  // Initializers are known constants (IR version 3 also lists them among
  // the inputs: those inputs are not function arguments).
  for (size_t i = 0; i < graph->n_initializer; ++i) {
    const Onnx__TensorProto* t = graph->initializer[i];
    const char* name = t->name ? t->name : "";
    char what[300];
    snprintf(what, sizeof(what), "initializer '%s'", name);
    kiln_onnx_const_t* c = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_read_tensor(im, t, what, &c));
    if (kiln_onnx_lookup(im, name)) {
      return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                             "initializer '%s' is defined twice", name);
    }
    kiln_onnx_value_t* v = kiln_onnx_new_value(im, name);
    if (!v)
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    v->type = c->type;
    v->known = c;
    KILN_RETURN_IF_ERROR(kiln_onnx_insert(im, v));
  }
  if (graph->n_sparse_initializer) {
    return kiln_onnx_error(im, KILN_STATUS_UNIMPLEMENTED,
                           "sparse initializers are not supported");
  }
  // Declared types: graph outputs and value_info.
  size_t num_declared = graph->n_output + graph->n_value_info;
  im->declared_names = (const char**)kiln_ir_arena_alloc(
      ctx, (num_declared + 1) * sizeof(char*));
  im->declared_types = (const kiln_ir_type_t**)kiln_ir_arena_alloc(
      ctx, (num_declared + 1) * sizeof(kiln_ir_type_t*));
  if (!im->declared_names || !im->declared_types) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (size_t i = 0; i < num_declared; ++i) {
    const Onnx__ValueInfoProto* vi =
        i < graph->n_output ? graph->output[i]
                            : graph->value_info[i - graph->n_output];
    const kiln_ir_type_t* type = NULL;
    KILN_RETURN_IF_ERROR(kiln_onnx_value_info_type(im, vi, false, &type));
    if (!type || !vi->name) continue;
    im->declared_names[im->num_declared] = vi->name;
    im->declared_types[im->num_declared] = type;
    ++im->num_declared;
  }
  // Arguments: one per tensor that each graph input flattens to.
  size_t num_inputs = 0, num_args = 0;
  kiln_onnx_value_t** input_values = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
      ctx, (graph->n_input + 1) * sizeof(kiln_onnx_value_t*));
  if (!input_values) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (size_t i = 0; i < graph->n_input; ++i) {
    const Onnx__ValueInfoProto* vi = graph->input[i];
    const char* name = vi->name ? vi->name : "";
    kiln_onnx_value_t* existing = kiln_onnx_lookup(im, name);
    if (existing && existing->known) continue;  // an initializer
    if (existing || !name[0]) {
      return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                             "graph input '%s' is listed twice or unnamed",
                             name);
    }
    kiln_onnx_value_t* v = kiln_onnx_new_value(im, name);
    if (!v)
      return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    KILN_RETURN_IF_ERROR(kiln_onnx_input_value(im, vi, num_inputs, v));
    kiln_onnx_flatten(v, NULL, &num_args);
    input_values[num_inputs++] = v;
    KILN_RETURN_IF_ERROR(kiln_onnx_insert(im, v));
  }
  kiln_onnx_value_t** arg_values = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
      ctx, (num_args + 1) * sizeof(kiln_onnx_value_t*));
  const kiln_ir_type_t** arg_types =
      (const kiln_ir_type_t**)kiln_ir_arena_alloc(
          ctx, (num_args + 1) * sizeof(kiln_ir_type_t*));
  if (!arg_values || !arg_types) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  num_args = 0;
  for (size_t i = 0; i < num_inputs; ++i) {
    kiln_onnx_flatten(input_values[i], arg_values, &num_args);
  }
  for (size_t i = 0; i < num_args; ++i) arg_types[i] = arg_values[i]->type;
  const kiln_ir_location_t* file_loc =
      kiln_ir_location_file(ctx, kiln_make_cstring_view(im->filename), 0, 0);
  kiln_ir_op_t* module = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_module_create(ctx, file_loc, &module));
  const kiln_ir_type_t* initial_type =
      kiln_ir_function_type_get(ctx, num_args, arg_types, 0, NULL);
  kiln_ir_op_t* func = NULL;
  KILN_RETURN_IF_ERROR(kiln_ir_func_create(
      ctx, module, kiln_make_cstring_view(kiln_onnx_function_name(graph)),
      initial_type, file_loc, &func));
  kiln_ir_block_t* entry = kiln_ir_func_entry_block(func);
  // Each argument carries its graph input's name (kiln.name), which the
  // run-time shape check names.
  const kiln_ir_attribute_t** arg_attrs =
      (const kiln_ir_attribute_t**)kiln_ir_arena_alloc(
          ctx, (num_args + 1) * sizeof(*arg_attrs));
  if (!arg_attrs) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (size_t i = 0; i < num_args; ++i) {
    kiln_onnx_value_t* v = arg_values[i];
    v->ir = entry->args[i];
    kiln_ir_named_attribute_t entry_name = {
        kiln_ir_intern_cstr(ctx, "kiln.name"),
        kiln_ir_string_attr_get(ctx, kiln_make_cstring_view(v->name)), false};
    arg_attrs[i] = kiln_ir_dictionary_attr_get(ctx, 1, &entry_name);
    if (!entry_name.value || !arg_attrs[i]) {
      return kiln_ir_context_take_error(ctx);
    }
  }
  if (num_args) {
    KILN_RETURN_IF_ERROR(kiln_ir_op_set_attr(
        ctx, func, "arg_attrs",
        kiln_ir_array_attr_get(ctx, num_args, arg_attrs), false));
  }
  im->builder = kiln_ir_builder_make(ctx);
  kiln_ir_builder_set_to_end(&im->builder, entry);
  im->builder.location = file_loc;
  for (size_t i = 0; i < graph->n_node; ++i) {
    im->node_index = i;
    KILN_RETURN_IF_ERROR(kiln_onnx_lower_node(im, graph->node[i]));
  }
  // Results: one per tensor that each graph output flattens to.
  im->builder.location = file_loc;
  kiln_onnx_node_t tail;
  memset(&tail, 0, sizeof(tail));
  tail.importer = im;
  tail.context = ctx;
  tail.b = &im->builder;
  tail.opset = im->opset;
  size_t num_results = 0;
  for (size_t i = 0; i < graph->n_output; ++i) {
    const char* name = graph->output[i]->name ? graph->output[i]->name : "";
    kiln_onnx_value_t* v = kiln_onnx_lookup(im, name);
    if (!v) {
      return kiln_onnx_error(im, KILN_STATUS_INVALID_ARGUMENT,
                             "graph output '%s' is never defined", name);
    }
    kiln_onnx_flatten(v, NULL, &num_results);
  }
  kiln_onnx_value_t** result_values = (kiln_onnx_value_t**)kiln_ir_arena_alloc(
      ctx, (num_results + 1) * sizeof(kiln_onnx_value_t*));
  kiln_ir_value_t** results = (kiln_ir_value_t**)kiln_ir_arena_alloc(
      ctx, (num_results + 1) * sizeof(kiln_ir_value_t*));
  const kiln_ir_type_t** result_types =
      (const kiln_ir_type_t**)kiln_ir_arena_alloc(
          ctx, (num_results + 1) * sizeof(kiln_ir_type_t*));
  if (!result_values || !results || !result_types) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  num_results = 0;
  for (size_t i = 0; i < graph->n_output; ++i) {
    const char* name = graph->output[i]->name ? graph->output[i]->name : "";
    kiln_onnx_flatten(kiln_onnx_lookup(im, name), result_values, &num_results);
  }
  for (size_t i = 0; i < num_results; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_onnx_materialize(&tail, result_values[i], &results[i]));
    result_types[i] = result_values[i]->type;
  }
  kiln_ir_op_t* ret = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_ir_builder_create_simple(&im->builder, "func.return", num_results,
                                    results, 0, NULL, 0, NULL, &ret));
  const kiln_ir_type_t* function_type = kiln_ir_function_type_get(
      ctx, num_args, arg_types, num_results, result_types);
  KILN_RETURN_IF_ERROR(
      kiln_ir_op_set_attr(ctx, func, "function_type",
                          kiln_ir_type_attr_get(ctx, function_type), false));
  *out_module = module;
  return kiln_ok_status();
}

// The model's protobuf is unpacked into the IR context's arena, so that
// its initializers' raw_data outlives the import and constants use it in
// place: copying BERT-base's 340 MB of weights out of the message cost a
// second of copies and page faults. Nothing is freed before the context.
static void* kiln_onnx_arena_alloc(void* allocator_data, size_t size) {
  return kiln_ir_arena_alloc_uninitialized((kiln_ir_context_t*)allocator_data,
                                           size);
}
static void kiln_onnx_arena_free(void* allocator_data, void* pointer) {
  (void)allocator_data;
  (void)pointer;
}

kiln_status_t kiln_onnx_import(kiln_ir_context_t* context, const char* filename,
                               const void* data, size_t length,
                               kiln_ir_op_t** out_module) {
  return kiln_onnx_import_with_options(context, filename, data, length, NULL,
                                       out_module);
}

kiln_status_t kiln_onnx_import_with_options(
    kiln_ir_context_t* context, const char* filename, const void* data,
    size_t length, const kiln_onnx_import_options_t* options,
    kiln_ir_op_t** out_module) {
  *out_module = NULL;
  if (!filename) filename = "<stdin>";
  kiln_onnx_importer_t im;
  memset(&im, 0, sizeof(im));
  im.context = context;
  im.filename = filename;
  im.inputs_like = options ? options->inputs_like : NULL;
  const char* slash = strrchr(filename, '/');
  size_t dir_length =
      slash && strcmp(filename, "<stdin>") ? (size_t)(slash - filename) + 1 : 0;
  im.model_dir = (char*)malloc(dir_length + 1);
  if (!im.model_dir) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  memcpy(im.model_dir, filename, dir_length);
  im.model_dir[dir_length] = 0;

  kiln_status_t status = kiln_ok_status();
  ProtobufCAllocator arena = {kiln_onnx_arena_alloc, kiln_onnx_arena_free,
                              context};
  Onnx__ModelProto* model =
      onnx__model_proto__unpack(&arena, length, (const uint8_t*)data);
  if (!model) status = kiln_ir_context_take_error(context);  // out of memory
  if (!model && !status) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "%s: not a valid ONNX model (the protobuf "
                              "data is truncated or corrupted)",
                              filename);
  }
  if (!status && !model->graph) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "%s: the model has no graph", filename);
  }
  if (!status) {
    im.opset = -1;
    im.training_opset = -1;
    for (size_t i = 0; i < model->n_opset_import; ++i) {
      const Onnx__OperatorSetIdProto* o = model->opset_import[i];
      if (!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) {
        im.opset = o->has_version ? o->version : 0;
      } else if (!strcmp(o->domain, "ai.onnx.preview.training")) {
        im.training_opset = o->has_version ? o->version : 0;
      }
    }
    if (im.opset < 0 && model->has_ir_version && model->ir_version <= 2) {
      im.opset = 1;  // before opset_import existed
    }
    if (im.opset < 0) {
      // Only other domains (ai.onnx.preview.training, ...): their nodes
      // are refused one by one with the node named.
      im.opset = 0;
    } else if (im.opset < KILN_ONNX_MIN_OPSET) {
      status = kiln_make_status(
          KILN_STATUS_UNIMPLEMENTED,
          "%s: the model imports ai.onnx opset %lld; kiln supports opsets %d "
          "to %d",
          filename, (long long)im.opset, KILN_ONNX_MIN_OPSET,
          KILN_ONNX_MAX_OPSET);
    } else if (im.opset > KILN_ONNX_MAX_OPSET) {
      status = kiln_make_status(
          KILN_STATUS_UNIMPLEMENTED,
          "%s: the model imports ai.onnx opset %lld, newer than the newest "
          "opset the importer knows (%d)",
          filename, (long long)im.opset, KILN_ONNX_MAX_OPSET);
    }
  }
  if (!status && model->graph->n_node == 0 && model->graph->n_output == 0) {
    status = kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "%s: the graph has no outputs", filename);
  }
  if (!status) status = kiln_onnx_import_graph(&im, model->graph, out_module);
  if (status) *out_module = NULL;
  while (im.mappings) {
    kiln_onnx_mapping_t* next = im.mappings->next;
    munmap(im.mappings->address, im.mappings->length);
    free(im.mappings);
    im.mappings = next;
  }
  free(im.model_dir);
  return status;
}

// One "input"/"output" line of kiln_onnx_describe: the value's type in the
// run tools' spelling (3x4xbf16), or "?" when it is not a static tensor.
static void kiln_onnx_describe_value(kiln_ir_context_t* ctx, const char* kind,
                                     const Onnx__ValueInfoProto* vi,
                                     FILE* out) {
  const Onnx__TypeProto* type = vi->type;
  if (type && (type->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE ||
               type->value_case == ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE)) {
    fprintf(out, "%s %s\n", kind,
            type->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE
                ? "sequence"
                : "optional");
    return;
  }
  const Onnx__TypeProto__Tensor* tt =
      type && type->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE
          ? type->tensor_type
          : NULL;
  const kiln_ir_type_t* element =
      tt ? kiln_onnx_element_type(ctx, tt->elem_type) : NULL;
  const char* element_name =
      element ? kiln_ir_type_to_string(ctx, element) : NULL;
  bool known = element_name && tt->shape;
  for (size_t d = 0; known && d < tt->shape->n_dim; ++d) {
    known = tt->shape->dim[d]->value_case ==
                ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
            tt->shape->dim[d]->dim_value >= 0;
  }
  if (!known) {
    fprintf(out, "%s ?\n", kind);
    return;
  }
  fprintf(out, "%s ", kind);
  for (size_t d = 0; d < tt->shape->n_dim; ++d) {
    fprintf(out, "%lldx", (long long)tt->shape->dim[d]->dim_value);
  }
  fprintf(out, "%s\n", element_name);
}

kiln_status_t kiln_onnx_describe(const char* filename, const void* data,
                                 size_t length, FILE* out) {
  Onnx__ModelProto* model =
      onnx__model_proto__unpack(NULL, length, (const uint8_t*)data);
  if (!model || !model->graph) {
    if (model) onnx__model_proto__free_unpacked(model, NULL);
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "%s: not a valid ONNX model", filename);
  }
  int64_t opset = -1;
  for (size_t i = 0; i < model->n_opset_import; ++i) {
    const Onnx__OperatorSetIdProto* o = model->opset_import[i];
    if (!o->domain || !o->domain[0] || !strcmp(o->domain, "ai.onnx")) {
      opset = o->has_version ? o->version : 0;
    }
  }
  const Onnx__GraphProto* graph = model->graph;
  fprintf(out, "function %s\nopset %lld\n", kiln_onnx_function_name(graph),
          (long long)opset);
  kiln_ir_context_t* ctx = NULL;
  kiln_status_t status = kiln_ir_context_create(kiln_allocator_system(), &ctx);
  if (status) {
    onnx__model_proto__free_unpacked(model, NULL);
    return status;
  }
  for (size_t i = 0; i < graph->n_input; ++i) {
    const char* name = graph->input[i]->name ? graph->input[i]->name : "";
    bool initializer = false;
    for (size_t j = 0; j < graph->n_initializer && !initializer; ++j) {
      const char* other = graph->initializer[j]->name;
      initializer = other && !strcmp(other, name);
    }
    if (!initializer)
      kiln_onnx_describe_value(ctx, "input", graph->input[i], out);
  }
  for (size_t i = 0; i < graph->n_output; ++i) {
    kiln_onnx_describe_value(ctx, "output", graph->output[i], out);
  }
  kiln_ir_context_destroy(ctx);
  for (size_t i = 0; i < graph->n_node; ++i) {
    const char* op = graph->node[i]->op_type ? graph->node[i]->op_type : "";
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) {
      const char* other = graph->node[j]->op_type;
      seen = other && !strcmp(other, op);
    }
    if (!seen) fprintf(out, "op %s\n", op);
  }
  onnx__model_proto__free_unpacked(model, NULL);
  return kiln_ok_status();
}

static int kiln_onnx_compare_entries(const void* a, const void* b) {
  const kiln_onnx_op_entry_t* x = *(const kiln_onnx_op_entry_t* const*)a;
  const kiln_onnx_op_entry_t* y = *(const kiln_onnx_op_entry_t* const*)b;
  int c = strcmp(x->op_type, y->op_type);
  return c ? c : x->since_version - y->since_version;
}

void kiln_onnx_list_ops(FILE* out) {
  size_t count = 0;
  while (kiln_onnx_op_table[count].op_type) ++count;
  const kiln_onnx_op_entry_t** sorted =
      (const kiln_onnx_op_entry_t**)malloc((count + 1) * sizeof(*sorted));
  if (!sorted) return;
  for (size_t i = 0; i < count; ++i) sorted[i] = &kiln_onnx_op_table[i];
  qsort(sorted, count, sizeof(*sorted), kiln_onnx_compare_entries);
  for (size_t i = 0; i < count; ++i) {
    bool first = i == 0 || strcmp(sorted[i - 1]->op_type, sorted[i]->op_type);
    if (first) fprintf(out, "%s%s ", i ? "\n" : "", sorted[i]->op_type);
    fprintf(out, "%s%d", first ? "" : ",", sorted[i]->since_version);
  }
  if (count) fprintf(out, "\n");
  free(sorted);
}
