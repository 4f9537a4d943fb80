#include "compiler/ir/context.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/ir/context_internal.h"
#include "compiler/ir/printer.h"

//===----------------------------------------------------------------------===//
// Hash map
//===----------------------------------------------------------------------===//

uint64_t kiln_ir_hash_bytes(const void* data, size_t size) {
  const uint8_t* p = (const uint8_t*)data;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

void* kiln_ir_hash_map_find(const kiln_ir_hash_map_t* map,
                            kiln_string_view_t key) {
  if (!map->capacity) return NULL;
  size_t mask = map->capacity - 1;
  size_t i = kiln_ir_hash_bytes(key.data, key.size) & mask;
  while (map->keys[i].data) {
    if (kiln_string_view_equal(map->keys[i], key)) return map->values[i];
    i = (i + 1) & mask;
  }
  return NULL;
}

static bool kiln_ir_hash_map_insert_raw(kiln_ir_hash_map_t* map,
                                        kiln_string_view_t key, void* value) {
  size_t mask = map->capacity - 1;
  size_t i = kiln_ir_hash_bytes(key.data, key.size) & mask;
  while (map->keys[i].data) {
    if (kiln_string_view_equal(map->keys[i], key)) {
      map->values[i] = value;
      return false;
    }
    i = (i + 1) & mask;
  }
  map->keys[i] = key;
  map->values[i] = value;
  return true;
}

bool kiln_ir_hash_map_put(kiln_allocator_t allocator, kiln_ir_hash_map_t* map,
                          kiln_string_view_t key, void* value) {
  if ((map->count + 1) * 2 > map->capacity) {
    size_t new_capacity = map->capacity ? map->capacity * 2 : 64;
    kiln_ir_hash_map_t grown = {new_capacity, map->count, NULL, NULL};
    kiln_status_t st = kiln_allocator_calloc(
        allocator, new_capacity * sizeof(kiln_string_view_t),
        (void**)&grown.keys);
    if (st) {
      kiln_status_free(st);
      return false;
    }
    st = kiln_allocator_calloc(allocator, new_capacity * sizeof(void*),
                               (void**)&grown.values);
    if (st) {
      kiln_status_free(st);
      kiln_allocator_free(allocator, grown.keys);
      return false;
    }
    for (size_t i = 0; i < map->capacity; ++i) {
      if (map->keys[i].data) {
        kiln_ir_hash_map_insert_raw(&grown, map->keys[i], map->values[i]);
      }
    }
    kiln_ir_hash_map_free(allocator, map);
    *map = grown;
  }
  if (kiln_ir_hash_map_insert_raw(map, key, value)) ++map->count;
  return true;
}

void kiln_ir_hash_map_free(kiln_allocator_t allocator,
                           kiln_ir_hash_map_t* map) {
  kiln_allocator_free(allocator, map->keys);
  kiln_allocator_free(allocator, map->values);
  memset(map, 0, sizeof(*map));
}

//===----------------------------------------------------------------------===//
// Context
//===----------------------------------------------------------------------===//

typedef struct kiln_ir_arena_block_t {
  struct kiln_ir_arena_block_t* next;
  size_t size;
  size_t used;
  // data follows, 16-aligned
} kiln_ir_arena_block_t;

#define KILN_IR_ARENA_HEADER \
  ((sizeof(kiln_ir_arena_block_t) + 15) & ~(size_t)15)
#define KILN_IR_ARENA_BLOCK_SIZE (64 * 1024)

typedef struct kiln_ir_source_t {
  kiln_string_view_t file;
  char* text;
  size_t size;
  uint32_t first_line;
} kiln_ir_source_t;

struct kiln_ir_context_t {
  kiln_allocator_t allocator;
  kiln_ir_arena_block_t* arena;
  bool oom;
  bool allow_unregistered;
  kiln_ir_hash_map_t strings;
  kiln_ir_hash_map_t types;
  kiln_ir_hash_map_t ops;
  const kiln_ir_op_def_t** op_list;
  size_t op_count;
  size_t op_capacity;
  kiln_ir_location_t unknown_loc;
  kiln_ir_diagnostic_t* diags;
  size_t diag_count;
  size_t diag_capacity;
  kiln_ir_diagnostic_handler_t handler;
  void* handler_data;
  kiln_ir_source_t* sources;
  size_t source_count;
};

kiln_status_t kiln_ir_context_create(kiln_allocator_t allocator,
                                     kiln_ir_context_t** out_context) {
  *out_context = NULL;
  kiln_ir_context_t* c = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*c), (void**)&c));
  c->allocator = allocator;
  c->unknown_loc.kind = KILN_IR_LOC_UNKNOWN;
  *out_context = c;
  return kiln_ok_status();
}

void kiln_ir_context_destroy(kiln_ir_context_t* c) {
  if (!c) return;
  kiln_ir_arena_block_t* b = c->arena;
  while (b) {
    kiln_ir_arena_block_t* next = b->next;
    kiln_allocator_free_aligned(c->allocator, b, 16);
    b = next;
  }
  kiln_ir_hash_map_free(c->allocator, &c->strings);
  kiln_ir_hash_map_free(c->allocator, &c->types);
  kiln_ir_hash_map_free(c->allocator, &c->ops);
  kiln_allocator_free(c->allocator, c->op_list);
  kiln_allocator_free(c->allocator, c->diags);
  for (size_t i = 0; i < c->source_count; ++i) {
    kiln_allocator_free(c->allocator, c->sources[i].text);
  }
  kiln_allocator_free(c->allocator, c->sources);
  kiln_allocator_free(c->allocator, c);
}

void kiln_ir_context_set_oom(kiln_ir_context_t* c) {
  c->oom = true;
}

kiln_status_t kiln_ir_context_take_error(kiln_ir_context_t* c) {
  if (!c->oom) return kiln_ok_status();
  c->oom = false;
  return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                          "out of memory in the IR context arena");
}

void kiln_ir_context_set_allow_unregistered_ops(kiln_ir_context_t* c,
                                                bool allow) {
  c->allow_unregistered = allow;
}
bool kiln_ir_context_allow_unregistered_ops(const kiln_ir_context_t* c) {
  return c->allow_unregistered;
}

// |size| bytes (a multiple of 16) from the current block or a new one.
static void* kiln_ir_arena_take(kiln_ir_context_t* c, size_t size) {
  kiln_ir_arena_block_t* b = c->arena;
  if (!b || b->size - b->used < size) {
    size_t block_size = KILN_IR_ARENA_BLOCK_SIZE;
    if (size > block_size / 4) block_size = size;
    void* mem = NULL;
    kiln_status_t st = kiln_allocator_malloc_aligned(
        c->allocator, KILN_IR_ARENA_HEADER + block_size, 16, &mem);
    if (st) {
      kiln_status_free(st);
      c->oom = true;
      return NULL;
    }
    kiln_ir_arena_block_t* nb = (kiln_ir_arena_block_t*)mem;
    nb->size = block_size;
    nb->used = 0;
    if (b && size == block_size && b->size - b->used > 1024) {
      // Keep the partially used block current for small allocations.
      nb->next = b->next;
      b->next = nb;
      nb->used = size;
      return (char*)nb + KILN_IR_ARENA_HEADER;
    }
    nb->next = b;
    c->arena = nb;
    b = nb;
  }
  void* p = (char*)b + KILN_IR_ARENA_HEADER + b->used;
  b->used += size;
  return p;
}

static size_t kiln_ir_arena_rounded(size_t size) {
  size = (size + 15) & ~(size_t)15;
  return size ? size : 16;
}

void* kiln_ir_arena_alloc(kiln_ir_context_t* c, size_t size) {
  size_t rounded = kiln_ir_arena_rounded(size);
  void* p = kiln_ir_arena_take(c, rounded);
  if (p) memset(p, 0, rounded);
  return p;
}

void* kiln_ir_arena_alloc_uninitialized(kiln_ir_context_t* c, size_t size) {
  size_t rounded = kiln_ir_arena_rounded(size);
  uint8_t* p = (uint8_t*)kiln_ir_arena_take(c, rounded);
  // The padding stays zeroed as kiln_ir_arena_alloc's: a copied string of
  // a length not a multiple of 16 reads as NUL-terminated.
  if (p) memset(p + size, 0, rounded - size);
  return p;
}

void* kiln_ir_arena_dup(kiln_ir_context_t* c, const void* data, size_t size) {
  void* p = kiln_ir_arena_alloc_uninitialized(c, size);
  if (p && size) memcpy(p, data, size);
  return p;
}

char* kiln_ir_arena_vprintf(kiln_ir_context_t* c, const char* format,
                            va_list args) {
  va_list copy;
  va_copy(copy, args);
  int n = vsnprintf(NULL, 0, format, copy);
  va_end(copy);
  if (n < 0) n = 0;
  char* p = (char*)kiln_ir_arena_alloc(c, (size_t)n + 1);
  if (!p) return NULL;
  vsnprintf(p, (size_t)n + 1, format, args);
  return p;
}

char* kiln_ir_arena_printf(kiln_ir_context_t* c, const char* format, ...) {
  va_list args;
  va_start(args, format);
  char* p = kiln_ir_arena_vprintf(c, format, args);
  va_end(args);
  return p;
}

kiln_string_view_t kiln_ir_intern(kiln_ir_context_t* c,
                                  kiln_string_view_t text) {
  kiln_string_view_t* found =
      (kiln_string_view_t*)kiln_ir_hash_map_find(&c->strings, text);
  if (found) return *found;
  kiln_string_view_t* entry =
      (kiln_string_view_t*)kiln_ir_arena_alloc(c, sizeof(*entry));
  char* copy = (char*)kiln_ir_arena_alloc(c, text.size + 1);
  if (!entry || !copy) return kiln_string_view_empty();
  if (text.size) memcpy(copy, text.data, text.size);
  entry->data = copy;
  entry->size = text.size;
  if (!kiln_ir_hash_map_put(c->allocator, &c->strings, *entry, entry)) {
    c->oom = true;
  }
  return *entry;
}

kiln_string_view_t kiln_ir_intern_cstr(kiln_ir_context_t* c, const char* text) {
  return kiln_ir_intern(c, kiln_make_cstring_view(text));
}

const kiln_ir_type_t* kiln_ir_unique_type(kiln_ir_context_t* c,
                                          const kiln_ir_type_t* proto) {
  kiln_ir_string_builder_t sb = {0};
  kiln_ir_sb_print_type(&sb, proto);
  if (sb.failed) {
    kiln_ir_sb_free(&sb);
    c->oom = true;
    return NULL;
  }
  kiln_string_view_t key =
      kiln_make_string_view(sb.data ? sb.data : "", sb.size);
  const kiln_ir_type_t* found =
      (const kiln_ir_type_t*)kiln_ir_hash_map_find(&c->types, key);
  if (found) {
    kiln_ir_sb_free(&sb);
    return found;
  }
  kiln_string_view_t interned = kiln_ir_intern(c, key);
  kiln_ir_sb_free(&sb);
  kiln_ir_type_t* type =
      (kiln_ir_type_t*)kiln_ir_arena_dup(c, proto, sizeof(*proto));
  if (!type || !interned.data) return NULL;
  if (!kiln_ir_hash_map_put(c->allocator, &c->types, interned, type)) {
    c->oom = true;
    return NULL;
  }
  return type;
}

//===----------------------------------------------------------------------===//
// Op registry
//===----------------------------------------------------------------------===//

kiln_status_t kiln_ir_register_op(kiln_ir_context_t* c,
                                  const kiln_ir_op_def_t* def) {
  kiln_string_view_t name = kiln_ir_intern_cstr(c, def->name);
  if (!name.data || !name.size) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "op definition without a name");
  }
  const kiln_ir_op_def_t* old =
      (const kiln_ir_op_def_t*)kiln_ir_hash_map_find(&c->ops, name);
  if (!kiln_ir_hash_map_put(c->allocator, &c->ops, name, (void*)def)) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "registering op '%s'", def->name);
  }
  if (old) {
    for (size_t i = 0; i < c->op_count; ++i) {
      if (c->op_list[i] == old) c->op_list[i] = def;
    }
    return kiln_ok_status();
  }
  if (c->op_count == c->op_capacity) {
    size_t cap = c->op_capacity ? c->op_capacity * 2 : 64;
    KILN_RETURN_IF_ERROR(kiln_allocator_realloc(
        c->allocator, cap * sizeof(*c->op_list), (void**)&c->op_list));
    c->op_capacity = cap;
  }
  c->op_list[c->op_count++] = def;
  return kiln_ok_status();
}

kiln_status_t kiln_ir_register_ops(kiln_ir_context_t* c,
                                   const kiln_ir_op_def_t* defs, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_ir_register_op(c, &defs[i]));
  }
  return kiln_ok_status();
}

kiln_status_t kiln_ir_register_op_alias(kiln_ir_context_t* c, const char* alias,
                                        const char* canonical) {
  const kiln_ir_op_def_t* def =
      kiln_ir_lookup_op(c, kiln_make_cstring_view(canonical));
  if (!def) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "alias '%s' of unregistered op '%s'", alias,
                            canonical);
  }
  kiln_string_view_t name = kiln_ir_intern_cstr(c, alias);
  if (!kiln_ir_hash_map_put(c->allocator, &c->ops, name, (void*)def)) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "registering alias '%s'", alias);
  }
  return kiln_ok_status();
}

const kiln_ir_op_def_t* kiln_ir_lookup_op(kiln_ir_context_t* c,
                                          kiln_string_view_t name) {
  return (const kiln_ir_op_def_t*)kiln_ir_hash_map_find(&c->ops, name);
}

void kiln_ir_for_each_op_def(kiln_ir_context_t* c,
                             void (*fn)(void*, const kiln_ir_op_def_t*),
                             void* user_data) {
  for (size_t i = 0; i < c->op_count; ++i) fn(user_data, c->op_list[i]);
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

const kiln_ir_location_t* kiln_ir_location_unknown(kiln_ir_context_t* c) {
  return &c->unknown_loc;
}

static kiln_ir_location_t* kiln_ir_new_loc(kiln_ir_context_t* c,
                                           kiln_ir_location_kind_t kind) {
  kiln_ir_location_t* l =
      (kiln_ir_location_t*)kiln_ir_arena_alloc(c, sizeof(*l));
  if (l) l->kind = kind;
  return l;
}

const kiln_ir_location_t* kiln_ir_location_file(kiln_ir_context_t* c,
                                                kiln_string_view_t file,
                                                uint32_t line,
                                                uint32_t column) {
  kiln_ir_location_t* l = kiln_ir_new_loc(c, KILN_IR_LOC_FILE);
  if (!l) return &c->unknown_loc;
  l->file = kiln_ir_intern(c, file);
  l->line = line;
  l->column = column;
  return l;
}

const kiln_ir_location_t* kiln_ir_location_fused(
    kiln_ir_context_t* c, size_t count,
    const kiln_ir_location_t* const* children) {
  kiln_ir_location_t* l = kiln_ir_new_loc(c, KILN_IR_LOC_FUSED);
  if (!l) return &c->unknown_loc;
  l->num_children = count;
  l->children = (const kiln_ir_location_t* const*)kiln_ir_arena_dup(
      c, children, count * sizeof(*children));
  return l;
}

const kiln_ir_location_t* kiln_ir_location_name(
    kiln_ir_context_t* c, kiln_string_view_t name,
    const kiln_ir_location_t* child) {
  kiln_ir_location_t* l = kiln_ir_new_loc(c, KILN_IR_LOC_NAME);
  if (!l) return &c->unknown_loc;
  l->name = kiln_ir_intern(c, name);
  if (child) {
    l->num_children = 1;
    l->children = (const kiln_ir_location_t* const*)kiln_ir_arena_dup(
        c, &child, sizeof(child));
  }
  return l;
}

const kiln_ir_location_t* kiln_ir_location_callsite(
    kiln_ir_context_t* c, const kiln_ir_location_t* callee,
    const kiln_ir_location_t* caller) {
  kiln_ir_location_t* l = kiln_ir_new_loc(c, KILN_IR_LOC_CALLSITE);
  if (!l) return &c->unknown_loc;
  const kiln_ir_location_t* kids[2] = {callee, caller};
  l->num_children = 2;
  l->children = (const kiln_ir_location_t* const*)kiln_ir_arena_dup(
      c, kids, sizeof(kids));
  return l;
}

const kiln_ir_location_t* kiln_ir_location_find_file(
    const kiln_ir_location_t* loc) {
  if (!loc) return NULL;
  if (loc->kind == KILN_IR_LOC_FILE) return loc;
  for (size_t i = 0; i < loc->num_children; ++i) {
    const kiln_ir_location_t* f = kiln_ir_location_find_file(loc->children[i]);
    if (f) return f;
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

void kiln_ir_context_set_diagnostic_handler(
    kiln_ir_context_t* c, kiln_ir_diagnostic_handler_t handler,
    void* user_data) {
  c->handler = handler;
  c->handler_data = user_data;
}

static const char* kiln_ir_severity_name(kiln_ir_severity_t s) {
  switch (s) {
    case KILN_IR_SEVERITY_ERROR:
      return "error";
    case KILN_IR_SEVERITY_WARNING:
      return "warning";
    case KILN_IR_SEVERITY_NOTE:
      return "note";
    default:
      return "remark";
  }
}

kiln_status_t kiln_ir_emit_diagnostic_v(kiln_ir_context_t* c,
                                        kiln_ir_severity_t severity,
                                        const kiln_ir_location_t* location,
                                        const char* format, va_list args) {
  if (!location) location = &c->unknown_loc;
  char* message = kiln_ir_arena_vprintf(c, format, args);
  if (!message) message = (char*)"(out of memory formatting diagnostic)";
  if (c->diag_count == c->diag_capacity) {
    size_t cap = c->diag_capacity ? c->diag_capacity * 2 : 16;
    kiln_status_t st = kiln_allocator_realloc(
        c->allocator, cap * sizeof(*c->diags), (void**)&c->diags);
    if (st) {
      kiln_status_free(st);
      c->oom = true;
    } else {
      c->diag_capacity = cap;
    }
  }
  kiln_ir_diagnostic_t d = {severity, location, message};
  if (c->diag_count < c->diag_capacity) c->diags[c->diag_count++] = d;
  if (c->handler) c->handler(c->handler_data, c, &d);
  if (severity != KILN_IR_SEVERITY_ERROR) return kiln_ok_status();
  const kiln_ir_location_t* f = kiln_ir_location_find_file(location);
  if (f) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "%.*s:%u:%u: error: %s", KILN_SV_ARG(f->file),
                            f->line, f->column, message);
  }
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, "error: %s", message);
}

kiln_status_t kiln_ir_emit_diagnostic(kiln_ir_context_t* c,
                                      kiln_ir_severity_t severity,
                                      const kiln_ir_location_t* location,
                                      const char* format, ...) {
  va_list args;
  va_start(args, format);
  kiln_status_t st =
      kiln_ir_emit_diagnostic_v(c, severity, location, format, args);
  va_end(args);
  return st;
}

kiln_status_t kiln_ir_emit_error(kiln_ir_context_t* c,
                                 const kiln_ir_location_t* location,
                                 const char* format, ...) {
  va_list args;
  va_start(args, format);
  kiln_status_t st = kiln_ir_emit_diagnostic_v(c, KILN_IR_SEVERITY_ERROR,
                                               location, format, args);
  va_end(args);
  return st;
}

size_t kiln_ir_context_diagnostic_count(const kiln_ir_context_t* c) {
  return c->diag_count;
}
const kiln_ir_diagnostic_t* kiln_ir_context_diagnostic(
    const kiln_ir_context_t* c, size_t index) {
  return index < c->diag_count ? &c->diags[index] : NULL;
}
size_t kiln_ir_context_error_count(const kiln_ir_context_t* c) {
  size_t n = 0;
  for (size_t i = 0; i < c->diag_count; ++i) {
    if (c->diags[i].severity == KILN_IR_SEVERITY_ERROR) ++n;
  }
  return n;
}
void kiln_ir_context_clear_diagnostics(kiln_ir_context_t* c) {
  c->diag_count = 0;
}

void kiln_ir_context_add_source(kiln_ir_context_t* c, kiln_string_view_t file,
                                const char* text, size_t size,
                                uint32_t first_line) {
  kiln_ir_source_t* grown = c->sources;
  kiln_status_t st = kiln_allocator_realloc(
      c->allocator, (c->source_count + 1) * sizeof(*grown), (void**)&grown);
  if (st) {
    kiln_status_free(st);
    return;
  }
  c->sources = grown;
  char* copy = NULL;
  st = kiln_allocator_malloc(c->allocator, size + 1, (void**)&copy);
  if (st) {
    kiln_status_free(st);
    return;
  }
  if (size) memcpy(copy, text, size);
  copy[size] = 0;
  kiln_ir_source_t* s = &c->sources[c->source_count++];
  s->file = kiln_ir_intern(c, file);
  s->text = copy;
  s->size = size;
  s->first_line = first_line ? first_line : 1;
}

// Finds the text of |line| in a registered source for |file|.
static bool kiln_ir_find_source_line(kiln_ir_context_t* c,
                                     kiln_string_view_t file, uint32_t line,
                                     kiln_string_view_t* out_line) {
  // Later sources (e.g. split chunks) win; pick one whose range holds line.
  for (size_t k = c->source_count; k-- > 0;) {
    kiln_ir_source_t* s = &c->sources[k];
    if (!kiln_string_view_equal(s->file, file) || line < s->first_line) {
      continue;
    }
    uint32_t cur = s->first_line;
    size_t pos = 0;
    while (cur < line && pos < s->size) {
      if (s->text[pos++] == '\n') ++cur;
    }
    if (cur != line || (pos >= s->size && line != s->first_line)) continue;
    size_t end = pos;
    while (end < s->size && s->text[end] != '\n') ++end;
    *out_line = kiln_make_string_view(s->text + pos, end - pos);
    return true;
  }
  return false;
}

// Writes |length| bytes with control bytes and DEL escaped as \xNN (a
// binary file given as MLIR must not put raw control bytes on a terminal);
// tabs stay.
static void kiln_ir_print_escaped(FILE* stream, const char* data,
                                  size_t length) {
  for (size_t i = 0; i < length; ++i) {
    unsigned char ch = (unsigned char)data[i];
    if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
      fprintf(stream, "\\x%02x", ch);
    } else {
      fputc(ch, stream);
    }
  }
}

static bool kiln_ir_byte_is_escaped(unsigned char ch) {
  return (ch < 0x20 && ch != '\t') || ch == 0x7f;
}

void kiln_ir_diagnostic_print(kiln_ir_context_t* c,
                              const kiln_ir_diagnostic_t* d, FILE* stream) {
  const kiln_ir_location_t* f = kiln_ir_location_find_file(d->location);
  if (f) {
    fprintf(stream, "%.*s:%u:%u: %s: ", KILN_SV_ARG(f->file), f->line,
            f->column, kiln_ir_severity_name(d->severity));
    kiln_ir_print_escaped(stream, d->message, strlen(d->message));
    fputc('\n', stream);
    kiln_string_view_t text;
    if (kiln_ir_find_source_line(c, f->file, f->line, &text)) {
      // Long lines (generated input: 100 KB on one line) are shown as a
      // window around the column, so that one error stays a few lines.
      enum { kWindow = 160 };
      size_t column = f->column ? f->column - 1 : 0;
      size_t start = column > kWindow / 2 ? column - kWindow / 2 : 0;
      if (start > text.size) start = text.size;
      size_t length = text.size - start < kWindow ? text.size - start : kWindow;
      const char* prefix = start > 0 ? "..." : "";
      fputs(prefix, stream);
      kiln_ir_print_escaped(stream, text.data + start, length);
      fprintf(stream, "%s\n", start + length < text.size ? "..." : "");
      for (size_t i = 0; i < strlen(prefix); ++i) fputc(' ', stream);
      for (size_t i = start; i < column; ++i) {
        unsigned char ch = i < text.size ? (unsigned char)text.data[i] : ' ';
        fputs(ch == '\t'                    ? "\t"
              : kiln_ir_byte_is_escaped(ch) ? "    "
                                            : " ",
              stream);
      }
      fputs("^\n", stream);
    }
  } else {
    fprintf(stream, "<unknown>:0:0: %s: ", kiln_ir_severity_name(d->severity));
    kiln_ir_print_escaped(stream, d->message, strlen(d->message));
    fputc('\n', stream);
  }
}

void kiln_ir_context_print_diagnostics(kiln_ir_context_t* c, FILE* stream) {
  for (size_t i = 0; i < c->diag_count; ++i) {
    kiln_ir_diagnostic_print(c, &c->diags[i], stream);
  }
}
