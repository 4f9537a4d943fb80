// Parameter index: .irpa and safetensors readers (formats described in
// docs/website/docs/guides/parameters.md).
#include "runtime/io/parameter_index.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct kiln_io_file_t {
  char* path;  // owned copy
  void* mapping;
  size_t length;
} kiln_io_file_t;

typedef struct kiln_io_entry_t {
  char* scope;  // owned, NUL-terminated
  char* key;    // owned, NUL-terminated
  size_t scope_length, key_length;
  uint32_t file;
  const uint8_t* data;  // in the mapping; NULL for a splat until expanded
  uint64_t length;
  uint64_t stored_length;  // data bytes in the file (<= length, rest zeros)
  uint8_t pattern[16];
  uint8_t pattern_length;  // 0 unless a splat
  uint8_t* owned;          // expanded splat / zero-padded data, or NULL
} kiln_io_entry_t;

struct kiln_io_parameter_index_t {
  kiln_ref_object_t ref;
  kiln_allocator_t allocator;
  kiln_io_file_t* files;
  size_t file_count, file_capacity;
  kiln_io_entry_t* entries;
  size_t entry_count, entry_capacity;
};

static void kiln_io_parameter_index_destroy(void* object) {
  kiln_io_parameter_index_t* index = (kiln_io_parameter_index_t*)object;
  kiln_allocator_t a = index->allocator;
  for (size_t i = 0; i < index->entry_count; ++i) {
    kiln_allocator_free(a, index->entries[i].scope);
    kiln_allocator_free(a, index->entries[i].key);
    kiln_allocator_free_aligned(a, index->entries[i].owned, 64);
  }
  for (size_t i = 0; i < index->file_count; ++i) {
    if (index->files[i].mapping) {
      munmap(index->files[i].mapping, index->files[i].length);
    }
    kiln_allocator_free(a, index->files[i].path);
  }
  kiln_allocator_free(a, index->entries);
  kiln_allocator_free(a, index->files);
  kiln_allocator_free(a, index);
}

static const kiln_ref_type_t kiln_io_parameter_index_type = {
    "io.parameter_index", kiln_io_parameter_index_destroy};

kiln_status_t kiln_io_parameter_index_create(
    kiln_allocator_t allocator, kiln_io_parameter_index_t** out_index) {
  *out_index = NULL;
  kiln_io_parameter_index_t* index = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*index), (void**)&index));
  kiln_ref_object_initialize(&index->ref, &kiln_io_parameter_index_type);
  index->allocator = allocator;
  *out_index = index;
  return kiln_ok_status();
}

static kiln_status_t kiln_io_copy_string(kiln_allocator_t a, const char* data,
                                         size_t length, char** out) {
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(a, length + 1, (void**)out));
  if (length) memcpy(*out, data, length);
  (*out)[length] = 0;
  return kiln_ok_status();
}

static kiln_io_entry_t* kiln_io_find(kiln_io_parameter_index_t* index,
                                     kiln_string_view_t scope,
                                     kiln_string_view_t key) {
  for (size_t i = 0; i < index->entry_count; ++i) {
    kiln_io_entry_t* e = &index->entries[i];
    if (e->scope_length == scope.size && e->key_length == key.size &&
        memcmp(e->scope, scope.data, scope.size) == 0 &&
        memcmp(e->key, key.data, key.size) == 0) {
      return e;
    }
  }
  return NULL;
}

// Appends an entry (scope and key copied); |path| names the file in errors.
static kiln_status_t kiln_io_add_entry(kiln_io_parameter_index_t* index,
                                       kiln_string_view_t scope,
                                       kiln_string_view_t key,
                                       const kiln_io_entry_t* value,
                                       const char* path) {
  if (kiln_io_find(index, scope, key)) {
    return kiln_make_status(KILN_STATUS_ALREADY_EXISTS,
                            "parameter file '%s': key '%.*s' is already in "
                            "scope '%.*s'",
                            path, KILN_SV_ARG(key), KILN_SV_ARG(scope));
  }
  if (index->entry_count == index->entry_capacity) {
    size_t cap = index->entry_capacity ? 2 * index->entry_capacity : 16;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(index->allocator,
                                                cap * sizeof(kiln_io_entry_t),
                                                (void**)&index->entries));
    index->entry_capacity = cap;
  }
  kiln_io_entry_t e = *value;
  e.scope = e.key = NULL;
  e.owned = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_io_copy_string(index->allocator, scope.data, scope.size, &e.scope));
  kiln_status_t status =
      kiln_io_copy_string(index->allocator, key.data, key.size, &e.key);
  if (status) {
    kiln_allocator_free(index->allocator, e.scope);
    return status;
  }
  e.scope_length = scope.size;
  e.key_length = key.size;
  index->entries[index->entry_count++] = e;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// .irpa (IREE parameter archive, version 0)
//===----------------------------------------------------------------------===//
// Little-endian, packed. Header: u32 magic "IRPA", u16 major (0), u16 minor,
// u64 header_size, u64 next_header_offset (0: none; relative to this
// header), u64 flags, u64 entry_count, then {u64 offset, u64 length} ranges
// of the entry table, the metadata segment and the storage segment (offsets
// relative to the header). Entries (16-byte aligned in the table): u64
// entry_size, u32 type (0 skip, 1 splat, 2 data, 3 external), u64 flags,
// name and metadata ranges in the metadata segment, u64 minimum alignment;
// a splat adds u64 length, u8 pattern[16], u8 pattern_length; a data entry
// adds a range in the storage segment.

#define KILN_IO_IRPA_MAGIC 0x41505249u
#define KILN_IO_IRPA_HEADER_V0_SIZE 88
#define KILN_IO_IRPA_ENTRY_HEADER_SIZE 60
#define KILN_IO_IRPA_SPLAT_ENTRY_SIZE 85
#define KILN_IO_IRPA_DATA_ENTRY_SIZE 76

static uint64_t kiln_io_rd64(const uint8_t* p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static uint32_t kiln_io_rd32(const uint8_t* p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

// True if [offset, offset + length) lies in [0, limit).
static bool kiln_io_in_range(uint64_t offset, uint64_t length, uint64_t limit) {
  return offset <= limit && length <= limit - offset;
}

#define KILN_IO_BAD(path, ...)                                     \
  kiln_status_annotate_f(                                          \
      kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, __VA_ARGS__), \
      "parameter file '%s'", path)

static kiln_status_t kiln_io_parse_irpa_archive(
    kiln_io_parameter_index_t* index, kiln_string_view_t scope,
    uint32_t file_ordinal, uint64_t base, uint64_t* out_next) {
  const kiln_io_file_t* f = &index->files[file_ordinal];
  const uint8_t* bytes = (const uint8_t*)f->mapping;
  uint64_t size = f->length;
  const char* path = f->path;
  if (!kiln_io_in_range(base, KILN_IO_IRPA_HEADER_V0_SIZE, size)) {
    return KILN_IO_BAD(path,
                       "truncated: archive header at %" PRIu64
                       " needs %d bytes, the file has %" PRIu64,
                       base, KILN_IO_IRPA_HEADER_V0_SIZE, size);
  }
  const uint8_t* h = bytes + base;
  if (kiln_io_rd32(h) != KILN_IO_IRPA_MAGIC) {
    return KILN_IO_BAD(path, "no IRPA magic at offset %" PRIu64, base);
  }
  uint16_t major, minor;
  memcpy(&major, h + 4, 2);
  memcpy(&minor, h + 6, 2);
  if (major != 0) {
    return KILN_IO_BAD(path,
                       "archive version %u.%u is not supported (supports 0.x)",
                       major, minor);
  }
  uint64_t header_size = kiln_io_rd64(h + 8);
  uint64_t next = kiln_io_rd64(h + 16);
  if (header_size < KILN_IO_IRPA_HEADER_V0_SIZE ||
      !kiln_io_in_range(base, header_size, size)) {
    return KILN_IO_BAD(path, "bad header size %" PRIu64, header_size);
  }
  uint64_t entry_count = kiln_io_rd64(h + 32);
  uint64_t seg[3][2];  // entries, metadata, storage: {offset, length}
  static const char* kSegNames[3] = {"entry table", "metadata segment",
                                     "storage segment"};
  for (int s = 0; s < 3; ++s) {
    seg[s][0] = kiln_io_rd64(h + 40 + 16 * s);
    seg[s][1] = kiln_io_rd64(h + 48 + 16 * s);
    if (seg[s][0] > UINT64_MAX - base ||
        !kiln_io_in_range(base + seg[s][0], seg[s][1], size)) {
      return KILN_IO_BAD(path,
                         "truncated: %s [%" PRIu64 ", +%" PRIu64
                         ") is past the end of the file (%" PRIu64 " bytes)",
                         kSegNames[s], base + seg[s][0], seg[s][1], size);
    }
  }
  const uint8_t* table = bytes + base + seg[0][0];
  const uint8_t* meta = bytes + base + seg[1][0];
  uint64_t storage = base + seg[2][0];
  uint64_t offset = 0;
  for (uint64_t i = 0; i < entry_count; ++i) {
    if (!kiln_io_in_range(offset, KILN_IO_IRPA_ENTRY_HEADER_SIZE, seg[0][1])) {
      return KILN_IO_BAD(path, "entry %" PRIu64 " is outside the entry table",
                         i);
    }
    const uint8_t* e = table + offset;
    uint64_t entry_size = kiln_io_rd64(e);
    uint32_t type = kiln_io_rd32(e + 8);
    uint64_t name_offset = kiln_io_rd64(e + 20);
    uint64_t name_length = kiln_io_rd64(e + 28);
    if (entry_size < KILN_IO_IRPA_ENTRY_HEADER_SIZE ||
        !kiln_io_in_range(offset, entry_size, seg[0][1])) {
      return KILN_IO_BAD(path, "entry %" PRIu64 " has a bad size %" PRIu64, i,
                         entry_size);
    }
    if (!kiln_io_in_range(name_offset, name_length, seg[1][1])) {
      return KILN_IO_BAD(path,
                         "entry %" PRIu64
                         " name is outside the metadata "
                         "segment",
                         i);
    }
    kiln_string_view_t key =
        kiln_make_string_view((const char*)meta + name_offset, name_length);
    kiln_io_entry_t value;
    memset(&value, 0, sizeof(value));
    value.file = file_ordinal;
    if (type == 1) {  // splat
      if (entry_size < KILN_IO_IRPA_SPLAT_ENTRY_SIZE) {
        return KILN_IO_BAD(path, "splat entry '%.*s' is truncated",
                           KILN_SV_ARG(key));
      }
      value.length = kiln_io_rd64(e + 60);
      memcpy(value.pattern, e + 68, 16);
      value.pattern_length = e[84];
      uint8_t n = value.pattern_length;
      if (!(n == 1 || n == 2 || n == 4 || n == 8 || n == 16) ||
          value.length % n || value.length > SIZE_MAX / 2) {
        return KILN_IO_BAD(path,
                           "splat entry '%.*s': pattern length %u does not "
                           "divide its length %" PRIu64
                           " (or is not 1, 2, 4, 8, 16)",
                           KILN_SV_ARG(key), n, value.length);
      }
    } else if (type == 2) {  // data
      if (entry_size < KILN_IO_IRPA_DATA_ENTRY_SIZE) {
        return KILN_IO_BAD(path, "data entry '%.*s' is truncated",
                           KILN_SV_ARG(key));
      }
      uint64_t data_offset = kiln_io_rd64(e + 60);
      uint64_t data_length = kiln_io_rd64(e + 68);
      if (!kiln_io_in_range(data_offset, data_length, seg[2][1])) {
        return KILN_IO_BAD(
            path,
            "truncated: data of '%.*s' [+%" PRIu64 ", %" PRIu64
            " bytes] is outside the storage segment (%" PRIu64 " bytes)",
            KILN_SV_ARG(key), data_offset, data_length, seg[2][1]);
      }
      value.data = bytes + storage + data_offset;
      value.length = value.stored_length = data_length;
    } else if (type == 3) {
      return KILN_IO_BAD(path,
                         "entry '%.*s' refers to an external file, which "
                         "kiln does not read yet",
                         KILN_SV_ARG(key));
    } else if (type != 0) {
      return KILN_IO_BAD(path, "entry '%.*s' has unknown type %u",
                         KILN_SV_ARG(key), type);
    }
    if (type != 0) {
      KILN_RETURN_IF_ERROR(kiln_io_add_entry(index, scope, key, &value, path));
    }
    uint64_t step = (entry_size + 15) & ~(uint64_t)15;
    if (step > seg[0][1] - offset) step = seg[0][1] - offset;
    offset += step;
  }
  *out_next = next ? base + next : 0;
  if (next && *out_next <= base) {
    return KILN_IO_BAD(path, "next header offset does not move forward");
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_io_parse_irpa(kiln_io_parameter_index_t* index,
                                        kiln_string_view_t scope,
                                        uint32_t file_ordinal) {
  uint64_t base = 0;
  do {
    uint64_t next = 0;
    KILN_RETURN_IF_ERROR(
        kiln_io_parse_irpa_archive(index, scope, file_ordinal, base, &next));
    base = next;
  } while (base);
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// safetensors
//===----------------------------------------------------------------------===//
// u64 header length N, N bytes of JSON: an object mapping each tensor name to
// {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]} (offsets
// from the end of the header), plus an optional "__metadata__" object.

typedef struct kiln_io_json_t {
  const char* start;
  const char* p;
  const char* end;
  const char* path;
} kiln_io_json_t;

static void kiln_io_json_ws(kiln_io_json_t* j) {
  while (j->p < j->end &&
         (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')) {
    ++j->p;
  }
}

static kiln_status_t kiln_io_json_bad(kiln_io_json_t* j, const char* what) {
  return KILN_IO_BAD(j->path, "bad safetensors header: %s at header byte %td",
                     what, j->p - j->start);
}

static kiln_status_t kiln_io_json_expect(kiln_io_json_t* j, char c) {
  kiln_io_json_ws(j);
  if (j->p >= j->end || *j->p != c) {
    char what[32];
    snprintf(what, sizeof(what), "expected '%c'", c);
    return kiln_io_json_bad(j, what);
  }
  ++j->p;
  return kiln_ok_status();
}

static bool kiln_io_json_peek(kiln_io_json_t* j, char c) {
  kiln_io_json_ws(j);
  return j->p < j->end && *j->p == c;
}

// A string; its raw contents (escapes other than \" and \\ refused: tensor
// names are plain text).
static kiln_status_t kiln_io_json_string(kiln_io_json_t* j,
                                         kiln_string_view_t* out) {
  KILN_RETURN_IF_ERROR(kiln_io_json_expect(j, '"'));
  const char* start = j->p;
  while (j->p < j->end && *j->p != '"') {
    if (*j->p == '\\') {
      return kiln_io_json_bad(j, "escape in a string (not supported)");
    }
    ++j->p;
  }
  if (j->p >= j->end) return kiln_io_json_bad(j, "unterminated string");
  *out = kiln_make_string_view(start, (size_t)(j->p - start));
  ++j->p;
  return kiln_ok_status();
}

static kiln_status_t kiln_io_json_u64(kiln_io_json_t* j, uint64_t* out) {
  kiln_io_json_ws(j);
  if (j->p >= j->end || *j->p < '0' || *j->p > '9') {
    return kiln_io_json_bad(j, "expected a non-negative integer");
  }
  uint64_t v = 0;
  while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
    uint64_t d = (uint64_t)(*j->p - '0');
    if (v > (UINT64_MAX - d) / 10)
      return kiln_io_json_bad(j, "integer overflow");
    v = v * 10 + d;
    ++j->p;
  }
  *out = v;
  return kiln_ok_status();
}

// Skips any value (for __metadata__ and unknown fields); |depth| bounds
// nesting so a hostile header cannot exhaust the stack.
static kiln_status_t kiln_io_json_skip(kiln_io_json_t* j, int depth) {
  if (depth > 32) return kiln_io_json_bad(j, "nesting too deep");
  kiln_io_json_ws(j);
  if (j->p >= j->end) return kiln_io_json_bad(j, "unexpected end");
  char c = *j->p;
  if (c == '"') {
    kiln_string_view_t s;
    return kiln_io_json_string(j, &s);
  }
  if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    ++j->p;
    if (kiln_io_json_peek(j, close)) {
      ++j->p;
      return kiln_ok_status();
    }
    for (;;) {
      if (c == '{') {
        kiln_string_view_t k;
        KILN_RETURN_IF_ERROR(kiln_io_json_string(j, &k));
        KILN_RETURN_IF_ERROR(kiln_io_json_expect(j, ':'));
      }
      KILN_RETURN_IF_ERROR(kiln_io_json_skip(j, depth + 1));
      if (kiln_io_json_peek(j, ',')) {
        ++j->p;
        continue;
      }
      return kiln_io_json_expect(j, close);
    }
  }
  // Numbers, true, false, null.
  const char* start = j->p;
  while (j->p < j->end && *j->p != ',' && *j->p != '}' && *j->p != ']' &&
         *j->p != ' ' && *j->p != '\n') {
    ++j->p;
  }
  if (j->p == start) return kiln_io_json_bad(j, "expected a value");
  return kiln_ok_status();
}

static uint64_t kiln_io_dtype_bytes(kiln_string_view_t dtype) {
  static const struct {
    const char* name;
    uint64_t bytes;
  } kTypes[] = {{"F64", 8},  {"F32", 4},     {"F16", 2},    {"BF16", 2},
                {"I64", 8},  {"I32", 4},     {"I16", 2},    {"I8", 1},
                {"U64", 8},  {"U32", 4},     {"U16", 2},    {"U8", 1},
                {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}};
  for (size_t i = 0; i < sizeof(kTypes) / sizeof(kTypes[0]); ++i) {
    if (kiln_string_view_equal(dtype, kiln_make_cstring_view(kTypes[i].name))) {
      return kTypes[i].bytes;
    }
  }
  return 0;
}

static kiln_status_t kiln_io_parse_safetensors(kiln_io_parameter_index_t* index,
                                               kiln_string_view_t scope,
                                               uint32_t file_ordinal) {
  const kiln_io_file_t* f = &index->files[file_ordinal];
  const uint8_t* bytes = (const uint8_t*)f->mapping;
  uint64_t size = f->length;
  if (size < 8) {
    return KILN_IO_BAD(f->path,
                       "truncated: %" PRIu64
                       " bytes is neither an .irpa archive nor a safetensors "
                       "file (no 8-byte header length)",
                       size);
  }
  uint64_t header_length = kiln_io_rd64(bytes);
  if (header_length > size - 8) {
    return KILN_IO_BAD(f->path,
                       "truncated or not a parameter file: safetensors header "
                       "of %" PRIu64 " bytes does not fit in %" PRIu64
                       " bytes (.irpa archives start with 'IRPA')",
                       header_length, size);
  }
  uint64_t data_base = 8 + header_length;
  uint64_t data_size = size - data_base;
  kiln_io_json_t j = {(const char*)bytes + 8, (const char*)bytes + 8,
                      (const char*)bytes + 8 + header_length, f->path};
  KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, '{'));
  if (kiln_io_json_peek(&j, '}')) return kiln_ok_status();
  for (;;) {
    kiln_string_view_t name;
    KILN_RETURN_IF_ERROR(kiln_io_json_string(&j, &name));
    KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, ':'));
    if (kiln_string_view_equal(name, kiln_make_cstring_view("__metadata__"))) {
      KILN_RETURN_IF_ERROR(kiln_io_json_skip(&j, 0));
    } else {
      kiln_string_view_t dtype = kiln_string_view_empty();
      uint64_t elements = 1, begin = 0, end = 0;
      bool has_shape = false, has_offsets = false;
      KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, '{'));
      while (!kiln_io_json_peek(&j, '}')) {
        kiln_string_view_t field;
        KILN_RETURN_IF_ERROR(kiln_io_json_string(&j, &field));
        KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, ':'));
        if (kiln_string_view_equal(field, kiln_make_cstring_view("dtype"))) {
          KILN_RETURN_IF_ERROR(kiln_io_json_string(&j, &dtype));
        } else if (kiln_string_view_equal(field,
                                          kiln_make_cstring_view("shape"))) {
          has_shape = true;
          KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, '['));
          while (!kiln_io_json_peek(&j, ']')) {
            uint64_t d = 0;
            KILN_RETURN_IF_ERROR(kiln_io_json_u64(&j, &d));
            if (d && elements > UINT64_MAX / d) {
              return kiln_io_json_bad(&j, "shape too large");
            }
            elements *= d;
            if (kiln_io_json_peek(&j, ',')) ++j.p;
          }
          ++j.p;
        } else if (kiln_string_view_equal(
                       field, kiln_make_cstring_view("data_offsets"))) {
          has_offsets = true;
          KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, '['));
          KILN_RETURN_IF_ERROR(kiln_io_json_u64(&j, &begin));
          KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, ','));
          KILN_RETURN_IF_ERROR(kiln_io_json_u64(&j, &end));
          KILN_RETURN_IF_ERROR(kiln_io_json_expect(&j, ']'));
        } else {
          KILN_RETURN_IF_ERROR(kiln_io_json_skip(&j, 0));
        }
        if (kiln_io_json_peek(&j, ',')) ++j.p;
      }
      ++j.p;
      uint64_t element_bytes = kiln_io_dtype_bytes(dtype);
      if (!element_bytes || !has_shape || !has_offsets) {
        return KILN_IO_BAD(f->path,
                           "tensor '%.*s' needs a known dtype (has '%.*s'), a "
                           "shape and data_offsets",
                           KILN_SV_ARG(name), KILN_SV_ARG(dtype));
      }
      if (end < begin || end > data_size) {
        return KILN_IO_BAD(f->path,
                           "truncated: tensor '%.*s' data [%" PRIu64
                           ", %" PRIu64
                           ") is past the end of the data (%" PRIu64 " bytes)",
                           KILN_SV_ARG(name), begin, end, data_size);
      }
      if (elements > UINT64_MAX / element_bytes ||
          elements * element_bytes != end - begin) {
        return KILN_IO_BAD(
            f->path,
            "tensor '%.*s' has %" PRIu64
            " data bytes; its dtype %.*s and shape need %" PRIu64,
            KILN_SV_ARG(name), end - begin, KILN_SV_ARG(dtype),
            elements * element_bytes);
      }
      kiln_io_entry_t value;
      memset(&value, 0, sizeof(value));
      value.file = file_ordinal;
      value.data = bytes + data_base + begin;
      value.length = value.stored_length = end - begin;
      KILN_RETURN_IF_ERROR(
          kiln_io_add_entry(index, scope, name, &value, f->path));
    }
    if (kiln_io_json_peek(&j, ',')) {
      ++j.p;
      continue;
    }
    return kiln_io_json_expect(&j, '}');
  }
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

kiln_status_t kiln_io_parameter_index_add_file(kiln_io_parameter_index_t* index,
                                               kiln_string_view_t scope,
                                               const char* path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int err = errno;
    return kiln_make_status(
        err == ENOENT ? KILN_STATUS_NOT_FOUND : KILN_STATUS_UNAVAILABLE,
        "cannot open parameter file '%s': %s", path, strerror(err));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "parameter file '%s' is not a regular file", path);
  }
  kiln_io_file_t file = {NULL, NULL, (size_t)st.st_size};
  if (file.length) {
    void* mapping = mmap(NULL, file.length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping == MAP_FAILED) {
      int err = errno;
      close(fd);
      return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                              "cannot map parameter file '%s': %s", path,
                              strerror(err));
    }
    file.mapping = mapping;
  }
  close(fd);
  kiln_status_t status =
      kiln_io_copy_string(index->allocator, path, strlen(path), &file.path);
  if (!status && index->file_count == index->file_capacity) {
    size_t cap = index->file_capacity ? 2 * index->file_capacity : 4;
    status = kiln_allocator_realloc(
        index->allocator, cap * sizeof(kiln_io_file_t), (void**)&index->files);
    if (!status) index->file_capacity = cap;
  }
  if (status) {
    if (file.mapping) munmap(file.mapping, file.length);
    kiln_allocator_free(index->allocator, file.path);
    return status;
  }
  // From here the index owns the mapping (released when it is destroyed).
  uint32_t ordinal = (uint32_t)index->file_count;
  index->files[index->file_count++] = file;
  // Entries of a file that fails to parse are dropped again.
  size_t first_entry = index->entry_count;
  const uint8_t* bytes = (const uint8_t*)file.mapping;
  if (file.length >= 4 && kiln_io_rd32(bytes) == KILN_IO_IRPA_MAGIC) {
    status = kiln_io_parse_irpa(index, scope, ordinal);
  } else {
    status = kiln_io_parse_safetensors(index, scope, ordinal);
  }
  if (status) {
    while (index->entry_count > first_entry) {
      kiln_io_entry_t* e = &index->entries[--index->entry_count];
      kiln_allocator_free(index->allocator, e->scope);
      kiln_allocator_free(index->allocator, e->key);
    }
  }
  return status;
}

kiln_status_t kiln_io_parameter_index_add_flag(kiln_io_parameter_index_t* index,
                                               const char* value) {
  const char* eq = strchr(value, '=');
  kiln_string_view_t scope = kiln_string_view_empty();
  const char* path = value;
  if (eq) {
    scope = kiln_make_string_view(value, (size_t)(eq - value));
    path = eq + 1;
  }
  if (!*path) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "--parameters='%s' names no file (expected "
                            "scope=path or path)",
                            value);
  }
  return kiln_io_parameter_index_add_file(index, scope, path);
}

size_t kiln_io_parameter_index_count(const kiln_io_parameter_index_t* index) {
  return index->entry_count;
}

kiln_status_t kiln_io_parameter_index_entry_at(
    const kiln_io_parameter_index_t* index, size_t ordinal,
    kiln_io_parameter_info_t* out_info) {
  if (ordinal >= index->entry_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "parameter ordinal %zu out of range", ordinal);
  }
  const kiln_io_entry_t* e = &index->entries[ordinal];
  out_info->scope = kiln_make_string_view(e->scope, e->scope_length);
  out_info->key = kiln_make_string_view(e->key, e->key_length);
  out_info->length = e->length;
  out_info->path = index->files[e->file].path;
  out_info->is_splat = e->pattern_length != 0;
  return kiln_ok_status();
}

kiln_status_t kiln_io_parameter_index_lookup(kiln_io_parameter_index_t* index,
                                             kiln_string_view_t scope,
                                             kiln_string_view_t key,
                                             const uint8_t** out_data,
                                             uint64_t* out_length) {
  *out_data = NULL;
  *out_length = 0;
  kiln_io_entry_t* e = kiln_io_find(index, scope, key);
  if (!e) {
    size_t in_scope = 0;
    for (size_t i = 0; i < index->entry_count; ++i) {
      const kiln_io_entry_t* x = &index->entries[i];
      if (x->scope_length == scope.size &&
          memcmp(x->scope, scope.data, scope.size) == 0) {
        ++in_scope;
      }
    }
    return kiln_make_status(
        KILN_STATUS_NOT_FOUND,
        "parameter '%.*s'::'%.*s' not found (%zu parameters in scope "
        "'%.*s'; pass the file with --parameters=%.*s%sFILE)",
        KILN_SV_ARG(scope), KILN_SV_ARG(key), in_scope, KILN_SV_ARG(scope),
        KILN_SV_ARG(scope), scope.size ? "=" : "");
  }
  if (!e->pattern_length && !e->owned && e->length &&
      ((uintptr_t)e->data % 64) != 0) {
    // Modules use constants 64-byte aligned; safetensors data need not be,
    // so a misaligned entry is copied once.
    KILN_RETURN_IF_ERROR(kiln_allocator_malloc_aligned(
        index->allocator, (size_t)e->length, 64, (void**)&e->owned));
    memcpy(e->owned, e->data, (size_t)e->length);
  }
  if (e->pattern_length && !e->owned && e->length) {
    // Expand the splat once; doubling copies.
    KILN_RETURN_IF_ERROR(kiln_allocator_malloc_aligned(
        index->allocator, (size_t)e->length, 64, (void**)&e->owned));
    size_t n = e->pattern_length;
    memcpy(e->owned, e->pattern, n);
    for (size_t done = n; done < e->length;) {
      size_t chunk = done < e->length - done ? done : (size_t)e->length - done;
      memcpy(e->owned + done, e->owned, chunk);
      done += chunk;
    }
  }
  *out_data = e->owned ? e->owned : e->data;
  if (!*out_data) *out_data = (const uint8_t*)"";
  *out_length = e->length;
  return kiln_ok_status();
}
