// A pointer -> pointer hash map whose storage lives in the IR context arena
// (so it is freed with the context and needs no explicit release). Used by
// the dispatch, schedule and codegen passes to attach per-op and per-value
// facts without touching the IR.
#ifndef KILN_COMPILER_DISPATCH_PTR_MAP_H_
#define KILN_COMPILER_DISPATCH_PTR_MAP_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/ir/context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_ptr_map_t {
  kiln_ir_context_t* context;
  size_t capacity;  // power of two (0 before the first insert)
  size_t count;
  const void** keys;
  void** values;
} kiln_ptr_map_t;

// An empty map whose storage comes from |context|'s arena.
static inline kiln_ptr_map_t kiln_ptr_map_make(kiln_ir_context_t* context) {
  kiln_ptr_map_t map = {context, 0, 0, NULL, NULL};
  return map;
}

static inline size_t kiln_ptr_map_hash_(const void* key, size_t mask) {
  uint64_t h = (uint64_t)(uintptr_t)key;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h & mask;
}

// True when |key| is present; stores its value in |*out_value| (may be
// NULL).
static inline bool kiln_ptr_map_find(const kiln_ptr_map_t* map, const void* key,
                                     void** out_value) {
  if (map->capacity == 0) return false;
  size_t mask = map->capacity - 1;
  for (size_t i = kiln_ptr_map_hash_(key, mask);; i = (i + 1) & mask) {
    if (map->keys[i] == NULL) return false;
    if (map->keys[i] == key) {
      if (out_value) *out_value = map->values[i];
      return true;
    }
  }
}

static inline bool kiln_ptr_map_contains(const kiln_ptr_map_t* map,
                                         const void* key) {
  return kiln_ptr_map_find(map, key, NULL);
}

// The value of |key| or NULL.
static inline void* kiln_ptr_map_get(const kiln_ptr_map_t* map,
                                     const void* key) {
  void* value = NULL;
  kiln_ptr_map_find(map, key, &value);
  return value;
}

// Inserts or replaces. Returns false on out of memory.
static inline bool kiln_ptr_map_put(kiln_ptr_map_t* map, const void* key,
                                    void* value) {
  if ((map->count + 1) * 2 > map->capacity) {
    size_t new_capacity = map->capacity ? map->capacity * 2 : 32;
    const void** keys = (const void**)kiln_ir_arena_alloc(
        map->context, new_capacity * sizeof(void*));
    void** values =
        (void**)kiln_ir_arena_alloc(map->context, new_capacity * sizeof(void*));
    if (!keys || !values) return false;
    size_t mask = new_capacity - 1;
    for (size_t j = 0; j < map->capacity; ++j) {
      if (!map->keys[j]) continue;
      size_t i = kiln_ptr_map_hash_(map->keys[j], mask);
      while (keys[i]) i = (i + 1) & mask;
      keys[i] = map->keys[j];
      values[i] = map->values[j];
    }
    map->keys = keys;
    map->values = values;
    map->capacity = new_capacity;
  }
  size_t mask = map->capacity - 1;
  size_t i = kiln_ptr_map_hash_(key, mask);
  while (map->keys[i] && map->keys[i] != key) i = (i + 1) & mask;
  if (!map->keys[i]) ++map->count;
  map->keys[i] = key;
  map->values[i] = value;
  return true;
}

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // KILN_COMPILER_DISPATCH_PTR_MAP_H_
