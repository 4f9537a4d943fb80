#include "runtime/hal/replay/recorder.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/base/crc32.h"
#include "runtime/base/sha256.h"
#include "runtime/base/sync.h"
#include "runtime/hal/replay/byte_stream.h"

#define KILN_REPLAY_NONE 0xFFFFFFFFu
// Trim tracked buffers and command buffers nobody else holds once this many
// are tracked (bounds the memory a long recording keeps alive).
#define KILN_REPLAY_TRIM_THRESHOLD 1024

//===----------------------------------------------------------------------===//
// Pointer -> id map (open addressing, rebuilt when trimmed)
//===----------------------------------------------------------------------===//

typedef struct kiln_replay_map_entry_t {
  void* key;  // retained object, NULL = empty
  uint32_t value;
} kiln_replay_map_entry_t;

typedef struct kiln_replay_map_t {
  kiln_replay_map_entry_t* entries;
  size_t capacity;  // power of two or 0
  size_t count;
} kiln_replay_map_t;

static size_t kiln_replay_map_slot(const kiln_replay_map_t* map,
                                   const void* key) {
  uintptr_t h = (uintptr_t)key;
  h ^= h >> 17;
  h *= (uintptr_t)0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 7) & (map->capacity - 1);
}

static bool kiln_replay_map_find(const kiln_replay_map_t* map, const void* key,
                                 uint32_t* out_value) {
  if (!map->capacity) return false;
  for (size_t i = kiln_replay_map_slot(map, key);;
       i = (i + 1) & (map->capacity - 1)) {
    if (!map->entries[i].key) return false;
    if (map->entries[i].key == key) {
      *out_value = map->entries[i].value;
      return true;
    }
  }
}

static kiln_status_t kiln_replay_map_insert(kiln_replay_map_t* map,
                                            kiln_allocator_t allocator,
                                            void* key, uint32_t value);

static kiln_status_t kiln_replay_map_grow(kiln_replay_map_t* map,
                                          kiln_allocator_t allocator,
                                          size_t capacity) {
  kiln_replay_map_t grown = {0};
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      allocator, capacity * sizeof(*grown.entries), (void**)&grown.entries));
  grown.capacity = capacity;
  for (size_t i = 0; i < map->capacity; ++i) {
    if (!map->entries[i].key) continue;
    size_t j = kiln_replay_map_slot(&grown, map->entries[i].key);
    while (grown.entries[j].key) j = (j + 1) & (capacity - 1);
    grown.entries[j] = map->entries[i];
    grown.count++;
  }
  kiln_allocator_free(allocator, map->entries);
  *map = grown;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_map_insert(kiln_replay_map_t* map,
                                            kiln_allocator_t allocator,
                                            void* key, uint32_t value) {
  if ((map->count + 1) * 2 > map->capacity) {
    KILN_RETURN_IF_ERROR(kiln_replay_map_grow(
        map, allocator, map->capacity ? map->capacity * 2 : 64));
  }
  size_t i = kiln_replay_map_slot(map, key);
  while (map->entries[i].key) i = (i + 1) & (map->capacity - 1);
  map->entries[i].key = key;
  map->entries[i].value = value;
  map->count++;
  return kiln_ok_status();
}

// Drops (and releases) every entry whose object only the map holds;
// |on_drop| (may be NULL) hears each dropped id.
static kiln_status_t kiln_replay_map_trim(kiln_replay_map_t* map,
                                          kiln_allocator_t allocator,
                                          void (*on_drop)(void*, uint32_t),
                                          void* user_data) {
  size_t kept = 0;
  for (size_t i = 0; i < map->capacity; ++i) {
    void* key = map->entries[i].key;
    if (!key) continue;
    if (kiln_ref_count(key) == 1) {
      if (on_drop) on_drop(user_data, map->entries[i].value);
      kiln_ref_release(key);
      map->entries[i].key = NULL;
      map->count--;
    } else {
      kept++;
    }
  }
  // Rehash what is left (deleted slots would break probing).
  size_t capacity = 64;
  while (capacity < kept * 2 + 2) capacity *= 2;
  return kiln_replay_map_grow(map, allocator, capacity);
}

static void kiln_replay_map_clear(kiln_replay_map_t* map,
                                  kiln_allocator_t allocator) {
  for (size_t i = 0; i < map->capacity; ++i) {
    kiln_ref_release(map->entries[i].key);
  }
  kiln_allocator_free(allocator, map->entries);
  memset(map, 0, sizeof(*map));
}

//===----------------------------------------------------------------------===//
// Recorded objects
//===----------------------------------------------------------------------===//

typedef struct kiln_replay_blob_t {
  uint8_t* data;
  uint64_t length;
  uint64_t hash;
} kiln_replay_blob_t;

typedef struct kiln_replay_file_entry_t {
  char* path;
  uint64_t size;
  int64_t mtime_ns;
} kiln_replay_file_entry_t;

typedef struct kiln_replay_range_t {
  uint64_t offset;
  uint64_t length;
  uint32_t blob;
} kiln_replay_range_t;

typedef struct kiln_replay_buffer_entry_t {
  uint64_t length;
  uint32_t origin;
  uint32_t memory_type;
  uint32_t access;
  uint32_t usage;
  uint32_t contents;
  uint32_t blob;
  uint32_t file;
  uint32_t validation;
  uint64_t file_offset;
  kiln_sha256_digest_t digest;
  const uint8_t* host_data;  // for capture-ranges, valid while tracked
  kiln_replay_range_t* ranges;
  size_t range_count;
  size_t range_capacity;
  uint32_t first_op;
  uint32_t last_op;
} kiln_replay_buffer_entry_t;

typedef struct kiln_replay_executable_entry_t {
  uint32_t blob;
  kiln_replay_bytes_t encoded;  // the EXECUTABLE payload
} kiln_replay_executable_entry_t;

typedef struct kiln_replay_command_buffer_entry_t {
  kiln_replay_bytes_t encoded;  // the COMMAND_BUFFER payload
  uint32_t* direct_buffers;     // buffer ids the commands name directly
  size_t direct_buffer_count;
  uint32_t first_op;
  uint32_t last_op;
} kiln_replay_command_buffer_entry_t;

typedef struct kiln_replay_op_t {
  size_t offset;  // of the record in |ops|
} kiln_replay_op_t;

// A growable array of |T| in a recorder (count, capacity, items).
#define KILN_REPLAY_ARRAY(T) \
  struct {                   \
    T* items;                \
    size_t count;            \
    size_t capacity;         \
  }

static kiln_status_t kiln_replay_array_reserve(kiln_allocator_t allocator,
                                               void** items, size_t* capacity,
                                               size_t count, size_t item_size) {
  if (count < *capacity) return kiln_ok_status();
  size_t grown = *capacity ? *capacity * 2 : 16;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_realloc(allocator, grown * item_size, items));
  memset((uint8_t*)*items + *capacity * item_size, 0,
         (grown - *capacity) * item_size);
  *capacity = grown;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_array_push(kiln_allocator_t allocator,
                                            void** items, size_t* capacity,
                                            size_t* count, size_t item_size,
                                            uint32_t* out_index) {
  KILN_RETURN_IF_ERROR(
      kiln_replay_array_reserve(allocator, items, capacity, *count, item_size));
  *out_index = (uint32_t)(*count)++;
  return kiln_ok_status();
}

#define KILN_REPLAY_ARRAY_PUSH(allocator, array, out_index)   \
  kiln_replay_array_push((allocator), (void**)&(array).items, \
                         &(array).capacity, &(array).count,   \
                         sizeof(*(array).items), (out_index))

struct kiln_hal_replay_recorder_t {
  kiln_ref_object_t ref;
  kiln_allocator_t allocator;
  kiln_hal_replay_recorder_options_t options;
  kiln_mutex_t mutex;
  kiln_status_t failure;  // first recording error (sticky)
  bool wrapped;
  bool scope_open;
  bool last_op_was_result;
  char device_id[24];

  KILN_REPLAY_ARRAY(kiln_replay_blob_t) blobs;
  KILN_REPLAY_ARRAY(kiln_replay_file_entry_t) files;
  KILN_REPLAY_ARRAY(kiln_replay_buffer_entry_t) buffers;
  KILN_REPLAY_ARRAY(kiln_replay_executable_entry_t) executables;
  KILN_REPLAY_ARRAY(kiln_replay_command_buffer_entry_t) command_buffers;
  KILN_REPLAY_ARRAY(kiln_replay_op_t) ops;
  kiln_replay_bytes_t op_bytes;  // every operation record, in order

  kiln_replay_map_t buffer_map;          // root buffer -> buffer id
  kiln_replay_map_t command_buffer_map;  // command buffer -> id
  kiln_replay_map_t executable_map;      // executable -> id
};

static void kiln_hal_replay_recorder_drop_objects(
    kiln_hal_replay_recorder_t* recorder) {
  kiln_replay_map_clear(&recorder->buffer_map, recorder->allocator);
  kiln_replay_map_clear(&recorder->command_buffer_map, recorder->allocator);
  kiln_replay_map_clear(&recorder->executable_map, recorder->allocator);
  for (size_t i = 0; i < recorder->buffers.count; ++i) {
    recorder->buffers.items[i].host_data = NULL;
  }
}

static void kiln_hal_replay_recorder_destroy(void* object) {
  kiln_hal_replay_recorder_t* recorder = (kiln_hal_replay_recorder_t*)object;
  kiln_allocator_t allocator = recorder->allocator;
  kiln_hal_replay_recorder_drop_objects(recorder);
  for (size_t i = 0; i < recorder->blobs.count; ++i) {
    kiln_allocator_free(allocator, recorder->blobs.items[i].data);
  }
  for (size_t i = 0; i < recorder->files.count; ++i) {
    kiln_allocator_free(allocator, recorder->files.items[i].path);
  }
  for (size_t i = 0; i < recorder->buffers.count; ++i) {
    kiln_allocator_free(allocator, recorder->buffers.items[i].ranges);
  }
  for (size_t i = 0; i < recorder->executables.count; ++i) {
    kiln_replay_bytes_deinitialize(&recorder->executables.items[i].encoded);
  }
  for (size_t i = 0; i < recorder->command_buffers.count; ++i) {
    kiln_replay_bytes_deinitialize(&recorder->command_buffers.items[i].encoded);
    kiln_allocator_free(allocator,
                        recorder->command_buffers.items[i].direct_buffers);
  }
  kiln_allocator_free(allocator, recorder->blobs.items);
  kiln_allocator_free(allocator, recorder->files.items);
  kiln_allocator_free(allocator, recorder->buffers.items);
  kiln_allocator_free(allocator, recorder->executables.items);
  kiln_allocator_free(allocator, recorder->command_buffers.items);
  kiln_allocator_free(allocator, recorder->ops.items);
  kiln_replay_bytes_deinitialize(&recorder->op_bytes);
  kiln_status_free(recorder->failure);
  kiln_mutex_deinitialize(&recorder->mutex);
  kiln_allocator_free(allocator, recorder);
}

static const kiln_ref_type_t kiln_hal_replay_recorder_type = {
    "hal.replay_recorder", kiln_hal_replay_recorder_destroy};

kiln_status_t kiln_hal_replay_parse_file_policy(
    const char* text, kiln_hal_replay_file_policy_t* out_policy) {
  static const struct {
    const char* name;
    kiln_hal_replay_file_policy_t policy;
  } kPolicies[] = {
      {"reference", KILN_HAL_REPLAY_FILE_POLICY_REFERENCE},
      {"capture-ranges", KILN_HAL_REPLAY_FILE_POLICY_CAPTURE_RANGES},
      {"capture-all", KILN_HAL_REPLAY_FILE_POLICY_CAPTURE_ALL},
      {"fail", KILN_HAL_REPLAY_FILE_POLICY_FAIL},
  };
  for (size_t i = 0; i < sizeof(kPolicies) / sizeof(kPolicies[0]); ++i) {
    if (text && !strcmp(text, kPolicies[i].name)) {
      *out_policy = kPolicies[i].policy;
      return kiln_ok_status();
    }
  }
  return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                          "unknown replay file policy '%s'; expected "
                          "reference, capture-ranges, capture-all or fail",
                          text ? text : "");
}

kiln_status_t kiln_hal_replay_parse_file_validation(
    const char* text, kiln_replay_validation_t* out_validation) {
  if (text && !strcmp(text, "identity")) {
    *out_validation = KILN_REPLAY_VALIDATION_IDENTITY;
  } else if (text && !strcmp(text, "digest")) {
    *out_validation = KILN_REPLAY_VALIDATION_DIGEST;
  } else {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "unknown replay file validation '%s'; expected "
                            "identity or digest",
                            text ? text : "");
  }
  return kiln_ok_status();
}

kiln_status_t kiln_hal_replay_recorder_create(
    const kiln_hal_replay_recorder_options_t* options,
    kiln_allocator_t host_allocator,
    kiln_hal_replay_recorder_t** out_recorder) {
  *out_recorder = NULL;
  if (options->file_validation != KILN_REPLAY_VALIDATION_IDENTITY &&
      options->file_validation != KILN_REPLAY_VALIDATION_DIGEST) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "replay file validation must be identity or "
                            "digest (got %d)",
                            (int)options->file_validation);
  }
  kiln_hal_replay_recorder_t* recorder = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(host_allocator, sizeof(*recorder),
                                             (void**)&recorder));
  kiln_ref_object_initialize(&recorder->ref, &kiln_hal_replay_recorder_type);
  recorder->allocator = host_allocator;
  recorder->options = *options;
  kiln_mutex_initialize(&recorder->mutex);
  kiln_replay_bytes_initialize(host_allocator, &recorder->op_bytes);
  *out_recorder = recorder;
  return kiln_ok_status();
}

void kiln_hal_replay_recorder_retain(kiln_hal_replay_recorder_t* recorder) {
  kiln_ref_retain(recorder);
}

void kiln_hal_replay_recorder_release(kiln_hal_replay_recorder_t* recorder) {
  kiln_ref_release(recorder);
}

// Keeps the first failure; returns |status| for the caller to propagate.
static kiln_status_t kiln_replay_note_failure(
    kiln_hal_replay_recorder_t* recorder, kiln_status_t status) {
  if (status && !recorder->failure) {
    recorder->failure = kiln_status_clone(status);
  }
  return status;
}

//===----------------------------------------------------------------------===//
// Blobs and files
//===----------------------------------------------------------------------===//

static uint64_t kiln_replay_hash(const uint8_t* data, uint64_t length) {
  uint64_t h = 0xcbf29ce484222325ull ^ length;
  uint64_t i = 0;
  for (; i + 8 <= length; i += 8) {
    h = (h ^ kiln_replay_load_u64(data + i)) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < length; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
  return h;
}

// Stores a copy of |data| (or finds an equal blob) and returns its id.
static kiln_status_t kiln_replay_add_blob(kiln_hal_replay_recorder_t* recorder,
                                          const uint8_t* data, uint64_t length,
                                          uint32_t* out_blob) {
  uint64_t hash = kiln_replay_hash(data, length);
  for (size_t i = recorder->blobs.count; i-- > 0;) {
    kiln_replay_blob_t* blob = &recorder->blobs.items[i];
    if (blob->hash == hash && blob->length == length &&
        (length == 0 || !memcmp(blob->data, data, (size_t)length))) {
      *out_blob = (uint32_t)i;
      return kiln_ok_status();
    }
  }
  if (length > SIZE_MAX / 2) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "replay blob of %" PRIu64 " bytes is too large",
                            length);
  }
  uint8_t* copy = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_malloc(
      recorder->allocator, length ? (size_t)length : 1, (void**)&copy));
  if (length) memcpy(copy, data, (size_t)length);
  uint32_t id = 0;
  kiln_status_t status =
      KILN_REPLAY_ARRAY_PUSH(recorder->allocator, recorder->blobs, &id);
  if (status) {
    kiln_allocator_free(recorder->allocator, copy);
    return status;
  }
  recorder->blobs.items[id].data = copy;
  recorder->blobs.items[id].length = length;
  recorder->blobs.items[id].hash = hash;
  *out_blob = id;
  return kiln_ok_status();
}

static bool kiln_replay_is_zero(const uint8_t* data, uint64_t length) {
  for (uint64_t i = 0; i < length; ++i) {
    if (data[i]) return false;
  }
  return true;
}

// Finds the file mapping holding [data, data + length) in /proc/self/maps:
// the file's path and the offset of |data| in it. False when the memory is
// not (entirely) a mapping of a regular, still existing file.
static bool kiln_replay_find_file_mapping(const void* data, uint64_t length,
                                          char* out_path, size_t path_capacity,
                                          uint64_t* out_file_offset) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return false;
  uintptr_t address = (uintptr_t)data;
  char line[4096 + 128];
  bool found = false;
  while (fgets(line, sizeof(line), maps)) {
    unsigned long long start = 0, end = 0, offset = 0, inode = 0;
    char perms[8] = {0};
    int path_start = 0;
    if (sscanf(line, "%llx-%llx %7s %llx %*s %llu %n", &start, &end, perms,
               &offset, &inode, &path_start) < 5) {
      continue;
    }
    if (address < start || address >= end) continue;
    if (inode == 0 || line[path_start] != '/') break;
    if (address + length > end) break;
    char* path = line + path_start;
    path[strcspn(path, "\n")] = 0;
    if (strstr(path, " (deleted)")) break;
    size_t n = strlen(path);
    if (n + 1 > path_capacity) break;
    memcpy(out_path, path, n + 1);
    *out_file_offset = offset + (address - start);
    found = true;
    break;
  }
  fclose(maps);
  return found;
}

static kiln_status_t kiln_replay_add_file(kiln_hal_replay_recorder_t* recorder,
                                          const char* path,
                                          const struct stat* info,
                                          uint32_t* out_file) {
  for (size_t i = 0; i < recorder->files.count; ++i) {
    if (!strcmp(recorder->files.items[i].path, path)) {
      *out_file = (uint32_t)i;
      return kiln_ok_status();
    }
  }
  size_t n = strlen(path);
  char* copy = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(recorder->allocator, n + 1, (void**)&copy));
  memcpy(copy, path, n + 1);
  uint32_t id = 0;
  kiln_status_t status =
      KILN_REPLAY_ARRAY_PUSH(recorder->allocator, recorder->files, &id);
  if (status) {
    kiln_allocator_free(recorder->allocator, copy);
    return status;
  }
  kiln_replay_file_entry_t* file = &recorder->files.items[id];
  file->path = copy;
  file->size = (uint64_t)info->st_size;
  file->mtime_ns =
      (int64_t)info->st_mtim.tv_sec * 1000000000ll + info->st_mtim.tv_nsec;
  *out_file = id;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

// Decides how a newly seen host buffer's contents are recorded.
static kiln_status_t kiln_replay_capture_contents(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_buffer_t* root,
    kiln_replay_buffer_entry_t* entry, uint32_t id) {
  const uint8_t* data = kiln_hal_buffer_host_ptr(root);
  uint64_t length = entry->length;
  char path[4096];
  uint64_t file_offset = 0;
  bool file_backed = !(entry->access & KILN_HAL_MEMORY_ACCESS_WRITE) &&
                     length > 0 &&
                     kiln_replay_find_file_mapping(data, length, path,
                                                   sizeof(path), &file_offset);
  if (file_backed) {
    switch (recorder->options.file_policy) {
      case KILN_HAL_REPLAY_FILE_POLICY_FAIL:
        return kiln_make_status(
            KILN_STATUS_FAILED_PRECONDITION,
            "replay capture: buffer %u (%" PRIu64
            " bytes) is backed by file '%s' at offset %" PRIu64
            " and the file policy is 'fail'; use "
            "--device_replay_file_policy=reference, capture-ranges or "
            "capture-all",
            id, length, path, file_offset);
      case KILN_HAL_REPLAY_FILE_POLICY_REFERENCE: {
        struct stat info;
        if (stat(path, &info) != 0 || !S_ISREG(info.st_mode)) break;
        KILN_RETURN_IF_ERROR(
            kiln_replay_add_file(recorder, path, &info, &entry->file));
        entry->contents = KILN_REPLAY_CONTENTS_FILE;
        entry->file_offset = file_offset;
        entry->validation = recorder->options.file_validation;
        if (entry->validation == KILN_REPLAY_VALIDATION_DIGEST) {
          entry->digest = kiln_sha256(data, (size_t)length);
        }
        return kiln_ok_status();
      }
      case KILN_HAL_REPLAY_FILE_POLICY_CAPTURE_RANGES:
        entry->contents = KILN_REPLAY_CONTENTS_RANGES;
        entry->host_data = data;
        return kiln_ok_status();
      case KILN_HAL_REPLAY_FILE_POLICY_CAPTURE_ALL:
        break;
    }
  }
  if (kiln_replay_is_zero(data, length)) {
    entry->contents = KILN_REPLAY_CONTENTS_ZERO;
    return kiln_ok_status();
  }
  entry->contents = KILN_REPLAY_CONTENTS_BLOB;
  return kiln_replay_add_blob(recorder, data, length, &entry->blob);
}

// The id of |buffer|'s root, tracking (and capturing) it when new.
static kiln_status_t kiln_replay_track_buffer(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_buffer_t* buffer,
    uint32_t origin, uint32_t* out_id) {
  kiln_hal_buffer_t* root = kiln_hal_buffer_allocated_buffer(buffer);
  if (kiln_replay_map_find(&recorder->buffer_map, root, out_id)) {
    return kiln_ok_status();
  }
  uint32_t id = 0;
  KILN_RETURN_IF_ERROR(
      KILN_REPLAY_ARRAY_PUSH(recorder->allocator, recorder->buffers, &id));
  kiln_replay_buffer_entry_t* entry = &recorder->buffers.items[id];
  entry->length = kiln_hal_buffer_byte_length(root);
  entry->origin = origin;
  entry->memory_type = kiln_hal_buffer_memory_type(root);
  entry->access = kiln_hal_buffer_allowed_access(root);
  entry->usage = kiln_hal_buffer_allowed_usage(root);
  entry->first_op = (uint32_t)recorder->ops.count;
  entry->last_op = (uint32_t)recorder->ops.count;
  entry->contents = KILN_REPLAY_CONTENTS_UNDEFINED;
  kiln_status_t status = kiln_ok_status();
  if (origin == KILN_REPLAY_BUFFER_ORIGIN_HOST) {
    status = kiln_replay_capture_contents(recorder, root, entry, id);
  }
  if (!status) {
    status = kiln_replay_map_insert(&recorder->buffer_map, recorder->allocator,
                                    root, id);
  }
  if (status) {
    // Keep the id (ids are dense) but make it an unused zero buffer.
    entry->contents = KILN_REPLAY_CONTENTS_ZERO;
    return status;
  }
  kiln_hal_buffer_retain(root);
  *out_id = id;
  return kiln_ok_status();
}

// Marks buffer |id| used by the operation being recorded and, for a
// capture-ranges buffer, captures [offset, offset + length) if not yet.
static kiln_status_t kiln_replay_use_buffer(
    kiln_hal_replay_recorder_t* recorder, uint32_t id, uint64_t offset,
    uint64_t length) {
  kiln_replay_buffer_entry_t* entry = &recorder->buffers.items[id];
  entry->last_op = (uint32_t)recorder->ops.count;
  if (entry->contents != KILN_REPLAY_CONTENTS_RANGES || length == 0) {
    return kiln_ok_status();
  }
  if (offset > entry->length || length > entry->length - offset) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "replay capture: range [%" PRIu64 ", +%" PRIu64
                            ") outside buffer %u of %" PRIu64 " bytes",
                            offset, length, id, entry->length);
  }
  for (size_t i = 0; i < entry->range_count; ++i) {
    kiln_replay_range_t* r = &entry->ranges[i];
    if (r->offset <= offset && offset + length <= r->offset + r->length) {
      return kiln_ok_status();
    }
  }
  if (!entry->host_data) {
    return kiln_make_status(KILN_STATUS_INTERNAL,
                            "replay capture: buffer %u is no longer mapped",
                            id);
  }
  uint32_t blob = 0;
  KILN_RETURN_IF_ERROR(
      kiln_replay_add_blob(recorder, entry->host_data + offset, length, &blob));
  KILN_RETURN_IF_ERROR(kiln_replay_array_reserve(
      recorder->allocator, (void**)&entry->ranges, &entry->range_capacity,
      entry->range_count, sizeof(*entry->ranges)));
  kiln_replay_range_t* range = &entry->ranges[entry->range_count++];
  range->offset = offset;
  range->length = length;
  range->blob = blob;
  return kiln_ok_status();
}

// Encodes |ref| (a command's buffer operand). Direct refs are rebased on
// the root buffer with a concrete length (|length| overrides the ref's own
// when not KILN_HAL_WHOLE_BUFFER... as the command defines it).
static kiln_status_t kiln_replay_encode_ref(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_buffer_ref_t ref,
    uint64_t length, kiln_replay_bytes_t* out, uint32_t* out_direct_id) {
  *out_direct_id = KILN_REPLAY_NONE;
  if (!ref.buffer) {
    kiln_replay_bytes_u32(out, KILN_REPLAY_NO_BUFFER);
    kiln_replay_bytes_u32(out, ref.buffer_slot);
    kiln_replay_bytes_u64(out, ref.offset);
    kiln_replay_bytes_u64(out, length);
    return kiln_ok_status();
  }
  uint64_t resolved = 0;
  KILN_RETURN_IF_ERROR(kiln_hal_buffer_calculate_range(ref.buffer, ref.offset,
                                                       length, &resolved));
  uint32_t id = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_track_buffer(
      recorder, ref.buffer, KILN_REPLAY_BUFFER_ORIGIN_HOST, &id));
  uint64_t offset = kiln_hal_buffer_byte_offset(ref.buffer) + ref.offset;
  KILN_RETURN_IF_ERROR(kiln_replay_use_buffer(recorder, id, offset, resolved));
  kiln_replay_bytes_u32(out, id);
  kiln_replay_bytes_u32(out, 0);
  kiln_replay_bytes_u64(out, offset);
  kiln_replay_bytes_u64(out, resolved);
  *out_direct_id = id;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Command buffers
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_replay_add_direct(
    kiln_hal_replay_recorder_t* recorder,
    kiln_replay_command_buffer_entry_t* entry, size_t* capacity, uint32_t id) {
  if (id == KILN_REPLAY_NONE) return kiln_ok_status();
  for (size_t i = 0; i < entry->direct_buffer_count; ++i) {
    if (entry->direct_buffers[i] == id) return kiln_ok_status();
  }
  KILN_RETURN_IF_ERROR(kiln_replay_array_reserve(
      recorder->allocator, (void**)&entry->direct_buffers, capacity,
      entry->direct_buffer_count, sizeof(uint32_t)));
  entry->direct_buffers[entry->direct_buffer_count++] = id;
  return kiln_ok_status();
}

// Encodes the commands of |cb| into |entry|.
static kiln_status_t kiln_replay_encode_command_buffer(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_command_buffer_t* cb,
    kiln_replay_command_buffer_entry_t* entry) {
  kiln_replay_bytes_t* out = &entry->encoded;
  size_t direct_capacity = 0;
  size_t count = kiln_hal_command_buffer_command_count(cb);
  kiln_replay_bytes_u32(out, kiln_hal_command_buffer_mode(cb));
  kiln_replay_bytes_u32(out, kiln_hal_command_buffer_binding_capacity(cb));
  kiln_replay_bytes_u32(out, (uint32_t)count);
  kiln_replay_bytes_u32(out, 0);
  for (size_t i = 0; i < count; ++i) {
    const kiln_hal_command_t* command = kiln_hal_command_buffer_command(cb, i);
    size_t start = out->size;
    kiln_replay_bytes_u32(out, (uint32_t)command->type);
    kiln_replay_bytes_u32(out, 0);  // length, patched below
    uint32_t direct[2] = {KILN_REPLAY_NONE, KILN_REPLAY_NONE};
    kiln_status_t status = kiln_ok_status();
    switch (command->type) {
      case KILN_HAL_COMMAND_BARRIER:
        break;
      case KILN_HAL_COMMAND_FILL:
        status = kiln_replay_encode_ref(recorder, command->fill.target,
                                        command->fill.target.length, out,
                                        &direct[0]);
        kiln_replay_bytes_u32(out, command->fill.pattern);
        kiln_replay_bytes_u32(out, command->fill.pattern_length);
        break;
      case KILN_HAL_COMMAND_UPDATE:
        status = kiln_replay_encode_ref(recorder, command->update.target,
                                        command->update.source_length, out,
                                        &direct[0]);
        kiln_replay_bytes_u64(out, command->update.source_length);
        kiln_replay_bytes_append(out, command->update.source,
                                 command->update.source_length);
        kiln_replay_bytes_align(out, 8);
        break;
      case KILN_HAL_COMMAND_COPY:
        status = kiln_replay_encode_ref(recorder, command->copy.source,
                                        command->copy.length, out, &direct[0]);
        if (!status) {
          status =
              kiln_replay_encode_ref(recorder, command->copy.target,
                                     command->copy.length, out, &direct[1]);
        }
        kiln_replay_bytes_u64(out, command->copy.length);
        break;
      case KILN_HAL_COMMAND_DISPATCH: {
        uint32_t executable = 0;
        if (!kiln_replay_map_find(&recorder->executable_map,
                                  command->dispatch.executable, &executable)) {
          return kiln_make_status(
              KILN_STATUS_UNIMPLEMENTED,
              "replay capture: command %zu dispatches an executable that was "
              "not prepared through the recording device's executable cache",
              i);
        }
        kiln_replay_bytes_u32(out, executable);
        kiln_replay_bytes_u32(out, command->dispatch.entry_point);
        for (int j = 0; j < 3; ++j) {
          kiln_replay_bytes_u32(out, command->dispatch.workgroup_count[j]);
        }
        kiln_replay_bytes_u32(out, command->dispatch.constant_count);
        kiln_replay_bytes_u32(out, command->dispatch.binding_count);
        kiln_replay_bytes_u32(out, 0);
        kiln_replay_bytes_append(out, command->dispatch.constants,
                                 command->dispatch.constant_count * 4u);
        kiln_replay_bytes_align(out, 8);
        for (uint32_t j = 0; j < command->dispatch.binding_count && !status;
             ++j) {
          uint32_t id = KILN_REPLAY_NONE;
          status = kiln_replay_encode_ref(
              recorder, command->dispatch.bindings[j],
              command->dispatch.bindings[j].length, out, &id);
          if (!status) {
            status =
                kiln_replay_add_direct(recorder, entry, &direct_capacity, id);
          }
        }
        break;
      }
      default:
        return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                                "replay capture: command %zu has unknown type "
                                "%d",
                                i, (int)command->type);
    }
    for (int j = 0; j < 2 && !status; ++j) {
      status =
          kiln_replay_add_direct(recorder, entry, &direct_capacity, direct[j]);
    }
    if (status) {
      return kiln_status_annotate_f(status, "recording command %zu", i);
    }
    kiln_replay_bytes_patch_u32(out, start + 4, (uint32_t)(out->size - start));
  }
  if (out->status) return kiln_status_clone(out->status);
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_track_command_buffer(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_command_buffer_t* cb,
    uint32_t* out_id) {
  if (kiln_replay_map_find(&recorder->command_buffer_map, cb, out_id)) {
    return kiln_ok_status();
  }
  uint32_t id = 0;
  KILN_RETURN_IF_ERROR(KILN_REPLAY_ARRAY_PUSH(recorder->allocator,
                                              recorder->command_buffers, &id));
  kiln_replay_command_buffer_entry_t* entry =
      &recorder->command_buffers.items[id];
  kiln_replay_bytes_initialize(recorder->allocator, &entry->encoded);
  entry->first_op = (uint32_t)recorder->ops.count;
  entry->last_op = entry->first_op;
  kiln_status_t status = kiln_replay_encode_command_buffer(recorder, cb, entry);
  if (!status) {
    status = kiln_replay_map_insert(&recorder->command_buffer_map,
                                    recorder->allocator, cb, id);
  }
  if (status) {
    // Ids are dense: keep the entry as an empty command buffer.
    kiln_replay_bytes_deinitialize(&entry->encoded);
    kiln_replay_bytes_initialize(recorder->allocator, &entry->encoded);
    uint32_t empty[4] = {KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, 0, 0};
    kiln_replay_bytes_append(&entry->encoded, empty, sizeof(empty));
    entry->direct_buffer_count = 0;
    return status;
  }
  kiln_hal_command_buffer_retain(cb);
  *out_id = id;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Operations
//===----------------------------------------------------------------------===//

// Appends an operation record with |payload| and counts it.
static kiln_status_t kiln_replay_append_op(kiln_hal_replay_recorder_t* recorder,
                                           uint32_t type,
                                           const kiln_replay_bytes_t* payload) {
  if (payload && payload->status) return kiln_status_clone(payload->status);
  uint32_t index = 0;
  KILN_RETURN_IF_ERROR(
      KILN_REPLAY_ARRAY_PUSH(recorder->allocator, recorder->ops, &index));
  kiln_replay_bytes_t* out = &recorder->op_bytes;
  recorder->ops.items[index].offset = out->size;
  kiln_replay_bytes_u32(out, type);
  kiln_replay_bytes_u32(out, 0);
  kiln_replay_bytes_u64(out, payload ? payload->size : 0);
  if (payload) kiln_replay_bytes_append(out, payload->data, payload->size);
  kiln_replay_bytes_align(out, KILN_REPLAY_RECORD_ALIGNMENT);
  recorder->last_op_was_result = type == KILN_REPLAY_RECORD_RESULT;
  if (out->status) {
    recorder->ops.count--;
    return kiln_status_clone(out->status);
  }
  return kiln_ok_status();
}

// A trimmed capture-ranges buffer can no longer be read.
static void kiln_replay_on_buffer_dropped(void* user_data, uint32_t id) {
  kiln_hal_replay_recorder_t* recorder = (kiln_hal_replay_recorder_t*)user_data;
  recorder->buffers.items[id].host_data = NULL;
}

static void kiln_replay_maybe_trim(kiln_hal_replay_recorder_t* recorder,
                                   bool force) {
  if (force || recorder->buffer_map.count > KILN_REPLAY_TRIM_THRESHOLD) {
    kiln_status_free(
        kiln_replay_map_trim(&recorder->buffer_map, recorder->allocator,
                             kiln_replay_on_buffer_dropped, recorder));
  }
  if (force ||
      recorder->command_buffer_map.count > KILN_REPLAY_TRIM_THRESHOLD) {
    kiln_status_free(kiln_replay_map_trim(&recorder->command_buffer_map,
                                          recorder->allocator, NULL, NULL));
  }
}

static kiln_status_t kiln_replay_record_execute(
    kiln_hal_replay_recorder_t* recorder, size_t command_buffer_count,
    kiln_hal_command_buffer_t* const* command_buffers,
    const kiln_hal_buffer_binding_table_t* binding_tables) {
  kiln_replay_bytes_t payload;
  kiln_replay_bytes_initialize(recorder->allocator, &payload);
  kiln_replay_bytes_u32(&payload, (uint32_t)command_buffer_count);
  kiln_replay_bytes_u32(&payload, 0);
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < command_buffer_count && !status; ++i) {
    uint32_t cb_id = 0;
    status =
        kiln_replay_track_command_buffer(recorder, command_buffers[i], &cb_id);
    if (status) break;
    kiln_replay_command_buffer_entry_t* cb =
        &recorder->command_buffers.items[cb_id];
    cb->last_op = (uint32_t)recorder->ops.count;
    for (size_t j = 0; j < cb->direct_buffer_count; ++j) {
      recorder->buffers.items[cb->direct_buffers[j]].last_op =
          (uint32_t)recorder->ops.count;
    }
    const kiln_hal_buffer_binding_table_t* table =
        binding_tables ? &binding_tables[i] : NULL;
    size_t binding_count = table ? table->count : 0;
    kiln_replay_bytes_u32(&payload, cb_id);
    kiln_replay_bytes_u32(&payload, (uint32_t)binding_count);
    for (size_t j = 0; j < binding_count && !status; ++j) {
      const kiln_hal_buffer_binding_t* binding = &table->bindings[j];
      if (!binding->buffer) {
        kiln_replay_bytes_u32(&payload, KILN_REPLAY_NO_BUFFER);
        kiln_replay_bytes_u32(&payload, 0);
        kiln_replay_bytes_u64(&payload, 0);
        kiln_replay_bytes_u64(&payload, 0);
        continue;
      }
      uint64_t length = 0;
      status = kiln_hal_buffer_calculate_range(binding->buffer, binding->offset,
                                               binding->length, &length);
      uint32_t id = 0;
      if (!status) {
        status = kiln_replay_track_buffer(recorder, binding->buffer,
                                          KILN_REPLAY_BUFFER_ORIGIN_HOST, &id);
      }
      uint64_t offset =
          kiln_hal_buffer_byte_offset(binding->buffer) + binding->offset;
      if (!status)
        status = kiln_replay_use_buffer(recorder, id, offset, length);
      if (status) {
        status = kiln_status_annotate_f(status,
                                        "binding %zu of command "
                                        "buffer %zu",
                                        j, i);
        break;
      }
      kiln_replay_bytes_u32(&payload, id);
      kiln_replay_bytes_u32(&payload, 0);
      kiln_replay_bytes_u64(&payload, offset);
      kiln_replay_bytes_u64(&payload, length);
    }
  }
  if (!status) {
    status =
        kiln_replay_append_op(recorder, KILN_REPLAY_RECORD_EXECUTE, &payload);
  }
  kiln_replay_bytes_deinitialize(&payload);
  return status;
}

// An op whose payload is (u32 a, u32 b).
static kiln_status_t kiln_replay_record_pair(
    kiln_hal_replay_recorder_t* recorder, uint32_t type, uint32_t a,
    uint32_t b) {
  kiln_replay_bytes_t payload;
  kiln_replay_bytes_initialize(recorder->allocator, &payload);
  kiln_replay_bytes_u32(&payload, a);
  kiln_replay_bytes_u32(&payload, b);
  kiln_status_t status = kiln_replay_append_op(recorder, type, &payload);
  kiln_replay_bytes_deinitialize(&payload);
  return status;
}

//===----------------------------------------------------------------------===//
// Recording executable cache
//===----------------------------------------------------------------------===//

typedef struct kiln_replay_cache_t {
  kiln_hal_executable_cache_t base;
  kiln_allocator_t allocator;
  kiln_hal_executable_cache_t* target;
  kiln_hal_replay_recorder_t* recorder;
} kiln_replay_cache_t;

static void kiln_replay_cache_destroy(kiln_hal_executable_cache_t* base) {
  kiln_replay_cache_t* cache = (kiln_replay_cache_t*)base;
  kiln_hal_executable_cache_release(cache->target);
  kiln_hal_replay_recorder_release(cache->recorder);
  kiln_allocator_free(cache->allocator, cache);
}

static bool kiln_replay_cache_can_prepare_format(
    kiln_hal_executable_cache_t* base, kiln_string_view_t format) {
  kiln_replay_cache_t* cache = (kiln_replay_cache_t*)base;
  return kiln_hal_executable_cache_can_prepare_format(cache->target, format);
}

static void kiln_replay_bytes_string(kiln_replay_bytes_t* out,
                                     kiln_string_view_t text) {
  kiln_replay_bytes_append(out, text.data, text.size);
}

static kiln_status_t kiln_replay_record_executable(
    kiln_hal_replay_recorder_t* recorder,
    const kiln_hal_executable_params_t* params,
    kiln_hal_executable_t* executable) {
  uint32_t id = 0;
  if (kiln_replay_map_find(&recorder->executable_map, executable, &id)) {
    return kiln_ok_status();  // a cache returned one it had already
  }
  uint32_t blob = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_add_blob(
      recorder, (const uint8_t*)params->data, params->data_length, &blob));
  KILN_RETURN_IF_ERROR(
      KILN_REPLAY_ARRAY_PUSH(recorder->allocator, recorder->executables, &id));
  kiln_replay_executable_entry_t* entry = &recorder->executables.items[id];
  entry->blob = blob;
  kiln_replay_bytes_t* out = &entry->encoded;
  kiln_replay_bytes_initialize(recorder->allocator, out);
  kiln_replay_bytes_u32(out, blob);
  kiln_replay_bytes_u32(out, (uint32_t)params->entry_point_count);
  kiln_replay_bytes_u32(out, (uint32_t)params->constant_count);
  kiln_replay_bytes_u32(out, (uint32_t)params->format.size);
  kiln_replay_bytes_string(out, params->format);
  kiln_replay_bytes_align(out, 4);
  // The executable's SHA-256 (format 1.1): a player checks it before
  // loading, so that a corrupted native blob never reaches dlopen even
  // when the file's CRC was recomputed.
  kiln_sha256_digest_t digest =
      kiln_sha256((const uint8_t*)params->data, params->data_length);
  kiln_replay_bytes_append(out, digest.bytes, sizeof(digest.bytes));
  kiln_replay_bytes_append(out, params->constants, params->constant_count * 4);
  for (size_t i = 0; i < params->entry_point_count; ++i) {
    const kiln_hal_executable_entry_point_info_t* info =
        &params->entry_points[i];
    for (int j = 0; j < 3; ++j) {
      kiln_replay_bytes_u32(out, info->workgroup_size[j]);
    }
    kiln_replay_bytes_u32(out, info->local_memory_size);
    kiln_replay_bytes_u32(out, (uint32_t)info->name.size);
    kiln_replay_bytes_u32(out, (uint32_t)info->source_location.size);
    kiln_replay_bytes_string(out, info->name);
    kiln_replay_bytes_string(out, info->source_location);
    kiln_replay_bytes_align(out, 4);
  }
  kiln_status_t status =
      out->status ? kiln_status_clone(out->status) : kiln_ok_status();
  if (!status) {
    status = kiln_replay_map_insert(&recorder->executable_map,
                                    recorder->allocator, executable, id);
  }
  if (status) {
    recorder->executables.count--;
    kiln_replay_bytes_deinitialize(out);
    return status;
  }
  kiln_hal_executable_retain(executable);
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_cache_prepare_executable(
    kiln_hal_executable_cache_t* base,
    const kiln_hal_executable_params_t* params,
    kiln_hal_executable_t** out_executable) {
  kiln_replay_cache_t* cache = (kiln_replay_cache_t*)base;
  KILN_RETURN_IF_ERROR(kiln_hal_executable_cache_prepare_executable(
      cache->target, params, out_executable));
  kiln_hal_replay_recorder_t* recorder = cache->recorder;
  kiln_mutex_lock(&recorder->mutex);
  kiln_status_t status = kiln_replay_note_failure(
      recorder,
      kiln_replay_record_executable(recorder, params, *out_executable));
  kiln_mutex_unlock(&recorder->mutex);
  if (status) {
    kiln_hal_executable_release(*out_executable);
    *out_executable = NULL;
    return kiln_status_annotate_f(status, "recording an executable (%.*s)",
                                  KILN_SV_ARG(params->format));
  }
  return kiln_ok_status();
}

static const kiln_hal_executable_cache_vtable_t kiln_replay_cache_vtable = {
    kiln_replay_cache_destroy,
    kiln_replay_cache_can_prepare_format,
    kiln_replay_cache_prepare_executable,
};

//===----------------------------------------------------------------------===//
// Recording device
//===----------------------------------------------------------------------===//

typedef struct kiln_replay_device_t {
  kiln_hal_device_t base;
  kiln_hal_device_t* target;
  kiln_hal_replay_recorder_t* recorder;
} kiln_replay_device_t;

static kiln_hal_replay_recorder_t* kiln_replay_device_recorder(
    kiln_hal_device_t* base) {
  return ((kiln_replay_device_t*)base)->recorder;
}
static kiln_hal_device_t* kiln_replay_device_target(kiln_hal_device_t* base) {
  return ((kiln_replay_device_t*)base)->target;
}

static void kiln_replay_device_destroy(kiln_hal_device_t* base) {
  kiln_replay_device_t* device = (kiln_replay_device_t*)base;
  kiln_hal_replay_recorder_t* recorder = device->recorder;
  kiln_mutex_lock(&recorder->mutex);
  kiln_hal_replay_recorder_drop_objects(recorder);
  kiln_mutex_unlock(&recorder->mutex);
  kiln_hal_replay_recorder_release(recorder);
  kiln_hal_device_t* target = device->target;
  kiln_allocator_t allocator = base->host_allocator;
  kiln_hal_device_deinitialize_base(base);
  kiln_allocator_free(allocator, device);
  kiln_hal_device_release(target);
}

static kiln_status_t kiln_replay_device_create_executable_cache(
    kiln_hal_device_t* base, kiln_hal_executable_cache_t** out_cache) {
  kiln_hal_executable_cache_t* target = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_device_create_executable_cache(
      kiln_replay_device_target(base), &target));
  kiln_replay_cache_t* cache = NULL;
  kiln_status_t status = kiln_allocator_calloc(base->host_allocator,
                                               sizeof(*cache), (void**)&cache);
  if (status) {
    kiln_hal_executable_cache_release(target);
    return status;
  }
  kiln_ref_object_initialize(&cache->base.ref, &kiln_hal_executable_cache_type);
  cache->base.vtable = &kiln_replay_cache_vtable;
  cache->allocator = base->host_allocator;
  cache->target = target;
  cache->recorder = kiln_replay_device_recorder(base);
  kiln_hal_replay_recorder_retain(cache->recorder);
  *out_cache = &cache->base;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_device_queue_execute(
    kiln_hal_device_t* base, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, size_t command_buffer_count,
    kiln_hal_command_buffer_t* const* command_buffers,
    const kiln_hal_buffer_binding_table_t* binding_tables,
    int64_t deadline_ns) {
  kiln_hal_replay_recorder_t* recorder = kiln_replay_device_recorder(base);
  kiln_mutex_lock(&recorder->mutex);
  kiln_replay_maybe_trim(recorder, false);
  kiln_status_t status = kiln_replay_note_failure(
      recorder, kiln_replay_record_execute(recorder, command_buffer_count,
                                           command_buffers, binding_tables));
  kiln_mutex_unlock(&recorder->mutex);
  if (status) return status;
  return kiln_hal_device_queue_execute_with_deadline(
      kiln_replay_device_target(base), wait_fence, signal_fence,
      command_buffer_count, command_buffers, binding_tables, deadline_ns);
}

static kiln_status_t kiln_replay_device_queue_alloca(
    kiln_hal_device_t* base, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, const kiln_hal_buffer_params_t* params,
    uint64_t size, kiln_hal_buffer_t** out_buffer) {
  KILN_RETURN_IF_ERROR(
      kiln_hal_device_queue_alloca(kiln_replay_device_target(base), wait_fence,
                                   signal_fence, params, size, out_buffer));
  kiln_hal_replay_recorder_t* recorder = kiln_replay_device_recorder(base);
  kiln_mutex_lock(&recorder->mutex);
  uint32_t id = 0;
  kiln_status_t status = kiln_replay_track_buffer(
      recorder, *out_buffer, KILN_REPLAY_BUFFER_ORIGIN_ALLOCA, &id);
  if (!status) {
    status =
        kiln_replay_record_pair(recorder, KILN_REPLAY_RECORD_ALLOCA, id, 0);
  }
  kiln_replay_note_failure(recorder, status);
  kiln_mutex_unlock(&recorder->mutex);
  return status;
}

static kiln_status_t kiln_replay_device_queue_dealloca(
    kiln_hal_device_t* base, kiln_hal_fence_t* wait_fence,
    kiln_hal_fence_t* signal_fence, kiln_hal_buffer_t* buffer) {
  kiln_hal_replay_recorder_t* recorder = kiln_replay_device_recorder(base);
  kiln_mutex_lock(&recorder->mutex);
  uint32_t id = 0;
  kiln_status_t status = kiln_replay_track_buffer(
      recorder, buffer, KILN_REPLAY_BUFFER_ORIGIN_HOST, &id);
  if (!status) status = kiln_replay_use_buffer(recorder, id, 0, 0);
  if (!status) {
    status =
        kiln_replay_record_pair(recorder, KILN_REPLAY_RECORD_DEALLOCA, id, 0);
  }
  kiln_replay_note_failure(recorder, status);
  kiln_mutex_unlock(&recorder->mutex);
  if (status) return status;
  return kiln_hal_device_queue_dealloca(kiln_replay_device_target(base),
                                        wait_fence, signal_fence, buffer);
}

static kiln_status_t kiln_replay_device_queue_flush(kiln_hal_device_t* base) {
  return kiln_hal_device_queue_flush(kiln_replay_device_target(base));
}

static kiln_status_t kiln_replay_device_profiling_begin(
    kiln_hal_device_t* base, const kiln_hal_profiling_sink_t* sink) {
  return kiln_hal_device_profiling_begin(kiln_replay_device_target(base), sink);
}

static kiln_status_t kiln_replay_device_profiling_end(kiln_hal_device_t* base) {
  return kiln_hal_device_profiling_end(kiln_replay_device_target(base));
}

static const kiln_hal_device_vtable_t kiln_replay_device_vtable = {
    kiln_replay_device_destroy,
    kiln_replay_device_create_executable_cache,
    kiln_replay_device_queue_execute,
    kiln_replay_device_queue_alloca,
    kiln_replay_device_queue_dealloca,
    kiln_replay_device_queue_flush,
    kiln_replay_device_profiling_begin,
    kiln_replay_device_profiling_end,
};

kiln_status_t kiln_hal_replay_recorder_wrap_device(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_device_t* device,
    kiln_hal_device_t** out_device) {
  *out_device = NULL;
  if (recorder->wrapped) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "a replay recorder records one device; it "
                            "already wraps one");
  }
  kiln_replay_device_t* wrapper = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      device->host_allocator, sizeof(*wrapper), (void**)&wrapper));
  char id[sizeof(device->id)];
  snprintf(id, sizeof(id), "%s", device->id);
  kiln_hal_device_initialize_base(&wrapper->base, &kiln_replay_device_vtable,
                                  id, kiln_hal_device_allocator(device),
                                  device->host_allocator);
  kiln_hal_device_retain(device);
  wrapper->target = device;
  kiln_hal_replay_recorder_retain(recorder);
  wrapper->recorder = recorder;
  recorder->wrapped = true;
  memcpy(recorder->device_id, id, strnlen(id, sizeof(recorder->device_id) - 1));
  *out_device = &wrapper->base;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Scopes and results
//===----------------------------------------------------------------------===//

kiln_status_t kiln_hal_replay_recorder_begin_scope(
    kiln_hal_replay_recorder_t* recorder, const char* name) {
  kiln_mutex_lock(&recorder->mutex);
  kiln_status_t status = kiln_ok_status();
  if (recorder->scope_open) {
    status = kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                              "replay scope '%s' opened while another is open "
                              "(scopes do not nest)",
                              name);
  } else {
    kiln_replay_bytes_t payload;
    kiln_replay_bytes_initialize(recorder->allocator, &payload);
    size_t n = strlen(name);
    kiln_replay_bytes_u32(&payload, (uint32_t)n);
    kiln_replay_bytes_u32(&payload, 0);
    kiln_replay_bytes_append(&payload, name, n);
    status = kiln_replay_append_op(recorder, KILN_REPLAY_RECORD_SCOPE_BEGIN,
                                   &payload);
    kiln_replay_bytes_deinitialize(&payload);
    if (!status) recorder->scope_open = true;
  }
  kiln_mutex_unlock(&recorder->mutex);
  return status;
}

kiln_status_t kiln_hal_replay_recorder_end_scope(
    kiln_hal_replay_recorder_t* recorder) {
  kiln_mutex_lock(&recorder->mutex);
  kiln_status_t status = kiln_ok_status();
  if (!recorder->scope_open) {
    status = kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                              "no replay scope is open");
  } else {
    status =
        kiln_replay_append_op(recorder, KILN_REPLAY_RECORD_SCOPE_END, NULL);
    if (!status) recorder->scope_open = false;
    kiln_replay_maybe_trim(recorder, false);
  }
  kiln_mutex_unlock(&recorder->mutex);
  return status;
}

kiln_status_t kiln_hal_replay_recorder_record_result(
    kiln_hal_replay_recorder_t* recorder, kiln_hal_buffer_view_t* view) {
  kiln_hal_buffer_t* buffer = kiln_hal_buffer_view_buffer(view);
  kiln_mutex_lock(&recorder->mutex);
  uint32_t id = 0;
  kiln_status_t status = kiln_replay_track_buffer(
      recorder, buffer, KILN_REPLAY_BUFFER_ORIGIN_HOST, &id);
  uint64_t offset = kiln_hal_buffer_byte_offset(buffer) +
                    kiln_hal_buffer_view_byte_offset(view);
  uint64_t length = kiln_hal_buffer_view_byte_length(view);
  if (!status) status = kiln_replay_use_buffer(recorder, id, offset, length);
  if (!status) {
    kiln_replay_bytes_t payload;
    kiln_replay_bytes_initialize(recorder->allocator, &payload);
    size_t rank = kiln_hal_buffer_view_shape_rank(view);
    const kiln_hal_dim_t* dims = kiln_hal_buffer_view_shape_dims(view);
    kiln_replay_bytes_u32(&payload, id);
    kiln_replay_bytes_u32(&payload, kiln_hal_buffer_view_element_type(view));
    kiln_replay_bytes_u32(&payload, kiln_hal_buffer_view_encoding_type(view));
    kiln_replay_bytes_u32(&payload, (uint32_t)rank);
    kiln_replay_bytes_u64(&payload, offset);
    kiln_replay_bytes_u64(&payload, length);
    for (size_t i = 0; i < rank; ++i) {
      kiln_replay_bytes_u64(&payload, (uint64_t)dims[i]);
    }
    status =
        kiln_replay_append_op(recorder, KILN_REPLAY_RECORD_RESULT, &payload);
    kiln_replay_bytes_deinitialize(&payload);
  }
  kiln_replay_note_failure(recorder, status);
  kiln_mutex_unlock(&recorder->mutex);
  return status;
}

//===----------------------------------------------------------------------===//
// Writing the file
//===----------------------------------------------------------------------===//

static size_t kiln_replay_begin_record(kiln_replay_bytes_t* out,
                                       uint32_t type) {
  size_t start = out->size;
  kiln_replay_bytes_u32(out, type);
  kiln_replay_bytes_u32(out, 0);
  kiln_replay_bytes_u64(out, 0);
  return start;
}

static void kiln_replay_end_record(kiln_replay_bytes_t* out, size_t start,
                                   uint32_t* record_count) {
  kiln_replay_bytes_patch_u64(
      out, start + 8, out->size - start - KILN_REPLAY_RECORD_HEADER_SIZE);
  kiln_replay_bytes_align(out, KILN_REPLAY_RECORD_ALIGNMENT);
  (*record_count)++;
}

static void kiln_replay_write_buffer(const kiln_replay_buffer_entry_t* entry,
                                     kiln_replay_bytes_t* out,
                                     uint32_t* record_count) {
  size_t start = kiln_replay_begin_record(out, KILN_REPLAY_RECORD_BUFFER);
  kiln_replay_bytes_u64(out, entry->length);
  kiln_replay_bytes_u32(out, entry->origin);
  kiln_replay_bytes_u32(out, entry->memory_type);
  kiln_replay_bytes_u32(out, entry->access);
  kiln_replay_bytes_u32(out, entry->usage);
  kiln_replay_bytes_u32(out, entry->contents);
  kiln_replay_bytes_u32(out, 0);
  switch (entry->contents) {
    case KILN_REPLAY_CONTENTS_BLOB:
      kiln_replay_bytes_u32(out, entry->blob);
      kiln_replay_bytes_u32(out, 0);
      break;
    case KILN_REPLAY_CONTENTS_FILE:
      kiln_replay_bytes_u32(out, entry->file);
      kiln_replay_bytes_u32(out, entry->validation);
      kiln_replay_bytes_u64(out, entry->file_offset);
      kiln_replay_bytes_append(out, entry->digest.bytes,
                               KILN_SHA256_DIGEST_SIZE);
      break;
    case KILN_REPLAY_CONTENTS_RANGES:
      kiln_replay_bytes_u32(out, (uint32_t)entry->range_count);
      kiln_replay_bytes_u32(out, 0);
      for (size_t i = 0; i < entry->range_count; ++i) {
        kiln_replay_bytes_u64(out, entry->ranges[i].offset);
        kiln_replay_bytes_u64(out, entry->ranges[i].length);
        kiln_replay_bytes_u32(out, entry->ranges[i].blob);
        kiln_replay_bytes_u32(out, 0);
      }
      break;
    default:
      break;
  }
  kiln_replay_end_record(out, start, record_count);
}

static void kiln_replay_write_release(kiln_replay_bytes_t* out, uint32_t kind,
                                      uint32_t id, uint32_t* record_count) {
  size_t start = kiln_replay_begin_record(out, KILN_REPLAY_RECORD_RELEASE);
  kiln_replay_bytes_u32(out, kind);
  kiln_replay_bytes_u32(out, id);
  kiln_replay_end_record(out, start, record_count);
}

// Serializes the recording into |out|.
static void kiln_replay_serialize(kiln_hal_replay_recorder_t* recorder,
                                  kiln_replay_bytes_t* out) {
  uint32_t record_count = 0;
  kiln_replay_bytes_append(out, NULL, KILN_REPLAY_HEADER_SIZE);
  for (size_t i = 0; i < recorder->blobs.count; ++i) {
    size_t start = kiln_replay_begin_record(out, KILN_REPLAY_RECORD_BLOB);
    kiln_replay_bytes_append(out, recorder->blobs.items[i].data,
                             recorder->blobs.items[i].length);
    kiln_replay_end_record(out, start, &record_count);
  }
  for (size_t i = 0; i < recorder->files.count; ++i) {
    const kiln_replay_file_entry_t* file = &recorder->files.items[i];
    size_t start = kiln_replay_begin_record(out, KILN_REPLAY_RECORD_FILE);
    size_t n = strlen(file->path);
    kiln_replay_bytes_u64(out, file->size);
    kiln_replay_bytes_u64(out, (uint64_t)file->mtime_ns);
    kiln_replay_bytes_u32(out, (uint32_t)n);
    kiln_replay_bytes_u32(out, 0);
    kiln_replay_bytes_append(out, file->path, n);
    kiln_replay_end_record(out, start, &record_count);
  }
  for (size_t i = 0; i < recorder->executables.count; ++i) {
    const kiln_replay_bytes_t* encoded =
        &recorder->executables.items[i].encoded;
    size_t start = kiln_replay_begin_record(out, KILN_REPLAY_RECORD_EXECUTABLE);
    kiln_replay_bytes_append(out, encoded->data, encoded->size);
    kiln_replay_end_record(out, start, &record_count);
  }
  // Definitions go right before the operation that first uses them, and a
  // RELEASE right after the last one, so that a player holds only live
  // objects. Ids were assigned in first-use order, so this keeps them dense.
  size_t next_buffer = 0;
  size_t next_cb = 0;
  size_t op_count = recorder->ops.count;
  for (size_t op = 0; op <= op_count; ++op) {
    while (next_buffer < recorder->buffers.count &&
           recorder->buffers.items[next_buffer].first_op <= op) {
      kiln_replay_write_buffer(&recorder->buffers.items[next_buffer], out,
                               &record_count);
      next_buffer++;
    }
    while (next_cb < recorder->command_buffers.count &&
           recorder->command_buffers.items[next_cb].first_op <= op) {
      const kiln_replay_bytes_t* encoded =
          &recorder->command_buffers.items[next_cb].encoded;
      size_t start =
          kiln_replay_begin_record(out, KILN_REPLAY_RECORD_COMMAND_BUFFER);
      kiln_replay_bytes_append(out, encoded->data, encoded->size);
      kiln_replay_end_record(out, start, &record_count);
      next_cb++;
    }
    if (op == op_count) break;
    size_t begin = recorder->ops.items[op].offset;
    size_t end = op + 1 < op_count ? recorder->ops.items[op + 1].offset
                                   : recorder->op_bytes.size;
    kiln_replay_bytes_append(out, recorder->op_bytes.data + begin, end - begin);
    record_count++;
    for (size_t i = 0; i < next_cb; ++i) {
      if (recorder->command_buffers.items[i].last_op == op) {
        kiln_replay_write_release(out, KILN_REPLAY_RELEASE_COMMAND_BUFFER,
                                  (uint32_t)i, &record_count);
      }
    }
    for (size_t i = 0; i < next_buffer; ++i) {
      if (recorder->buffers.items[i].last_op == op) {
        kiln_replay_write_release(out, KILN_REPLAY_RELEASE_BUFFER, (uint32_t)i,
                                  &record_count);
      }
    }
  }
  if (out->status) return;
  uint8_t* header = out->data;
  memcpy(header + KILN_REPLAY_HEADER_MAGIC, KILN_REPLAY_MAGIC, 8);
  uint16_t major = KILN_REPLAY_MAJOR_VERSION;
  uint16_t minor = KILN_REPLAY_MINOR_VERSION;
  memcpy(header + KILN_REPLAY_HEADER_MAJOR, &major, 2);
  memcpy(header + KILN_REPLAY_HEADER_MINOR, &minor, 2);
  uint64_t length = out->size;
  memcpy(header + KILN_REPLAY_HEADER_FILE_LENGTH, &length, 8);
  memcpy(header + KILN_REPLAY_HEADER_RECORD_COUNT, &record_count, 4);
  memcpy(header + KILN_REPLAY_HEADER_DEVICE_ID, recorder->device_id,
         strnlen(recorder->device_id, 23));
  uint32_t crc = kiln_crc32(out->data, out->size);
  memcpy(header + KILN_REPLAY_HEADER_CRC32, &crc, 4);
}

kiln_status_t kiln_hal_replay_recorder_write_file(
    kiln_hal_replay_recorder_t* recorder, const char* path) {
  kiln_mutex_lock(&recorder->mutex);
  if (recorder->failure) {
    kiln_status_t status = kiln_status_clone(recorder->failure);
    kiln_mutex_unlock(&recorder->mutex);
    return kiln_status_annotate_f(status,
                                  "the replay recording failed; not writing "
                                  "'%s'",
                                  path);
  }
  kiln_replay_bytes_t out;
  kiln_replay_bytes_initialize(recorder->allocator, &out);
  kiln_replay_serialize(recorder, &out);
  kiln_mutex_unlock(&recorder->mutex);
  kiln_status_t status =
      out.status ? kiln_status_clone(out.status) : kiln_ok_status();
  if (!status) {
    FILE* file = fopen(path, "wb");
    if (!file) {
      status = kiln_make_status(KILN_STATUS_NOT_FOUND,
                                "cannot open replay file '%s' for writing: %s",
                                path, strerror(errno));
    } else {
      bool ok = fwrite(out.data, 1, out.size, file) == out.size;
      ok = (fclose(file) == 0) && ok;
      if (!ok) {
        status = kiln_make_status(KILN_STATUS_DATA_LOSS,
                                  "writing replay file '%s' failed: %s", path,
                                  strerror(errno));
      }
    }
  }
  kiln_replay_bytes_deinitialize(&out);
  return status;
}
