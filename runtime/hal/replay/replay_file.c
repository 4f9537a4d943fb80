#include "runtime/hal/replay/replay_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/base/crc32.h"
#include "runtime/base/sha256.h"
#include "runtime/hal/replay/byte_stream.h"

//===----------------------------------------------------------------------===//
// Arena: every decoded array lives in one list of blocks freed together
//===----------------------------------------------------------------------===//

typedef struct kiln_replay_arena_block_t {
  struct kiln_replay_arena_block_t* next;
} kiln_replay_arena_block_t;

// Stored right after the public struct.
typedef struct kiln_replay_file_impl_t {
  kiln_hal_replay_file_t file;
  kiln_replay_arena_block_t* blocks;
} kiln_replay_file_impl_t;

static kiln_status_t kiln_replay_arena_calloc(kiln_replay_file_impl_t* impl,
                                              size_t count, size_t item_size,
                                              void** out_ptr) {
  *out_ptr = NULL;
  size_t size = 0;
  if (kiln_mul_overflow_size(count, item_size, &size) ||
      size > SIZE_MAX - sizeof(kiln_replay_arena_block_t) - 16) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "replay table of %zu entries is too large", count);
  }
  kiln_replay_arena_block_t* block = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      impl->file.allocator, sizeof(*block) + 16 + size, (void**)&block));
  block->next = impl->blocks;
  impl->blocks = block;
  *out_ptr = (uint8_t*)block + 16;
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Record names
//===----------------------------------------------------------------------===//

const char* kiln_hal_replay_record_type_name(uint32_t type) {
  switch (type) {
    case KILN_REPLAY_RECORD_BLOB:
      return "BLOB";
    case KILN_REPLAY_RECORD_FILE:
      return "FILE";
    case KILN_REPLAY_RECORD_BUFFER:
      return "BUFFER";
    case KILN_REPLAY_RECORD_EXECUTABLE:
      return "EXECUTABLE";
    case KILN_REPLAY_RECORD_COMMAND_BUFFER:
      return "COMMAND_BUFFER";
    case KILN_REPLAY_RECORD_EXECUTE:
      return "EXECUTE";
    case KILN_REPLAY_RECORD_ALLOCA:
      return "ALLOCA";
    case KILN_REPLAY_RECORD_DEALLOCA:
      return "DEALLOCA";
    case KILN_REPLAY_RECORD_SCOPE_BEGIN:
      return "SCOPE_BEGIN";
    case KILN_REPLAY_RECORD_SCOPE_END:
      return "SCOPE_END";
    case KILN_REPLAY_RECORD_RESULT:
      return "RESULT";
    case KILN_REPLAY_RECORD_RELEASE:
      return "RELEASE";
    default:
      return "?";
  }
}

//===----------------------------------------------------------------------===//
// Validation state
//===----------------------------------------------------------------------===//

typedef struct kiln_replay_loader_t {
  kiln_replay_file_impl_t* impl;
  // Capacities: the record count bounds every table.
  uint8_t* buffer_state;  // bit 0 released, bit 1 allocated (alloca)
  uint8_t* command_buffer_released;
  bool scope_open;
  char what[96];
} kiln_replay_loader_t;

#define KILN_REPLAY_BUFFER_RELEASED 1u
#define KILN_REPLAY_BUFFER_ALLOCATED 2u

static kiln_status_t kiln_replay_invalid(kiln_replay_loader_t* loader,
                                         const char* format, ...)
    __attribute__((format(printf, 2, 3)));

static kiln_status_t kiln_replay_invalid(kiln_replay_loader_t* loader,
                                         const char* format, ...) {
  char message[256];
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof(message), format, args);
  va_end(args);
  return kiln_make_status(KILN_STATUS_DATA_LOSS, "%s: %s", loader->what,
                          message);
}

// Checks that buffer |id| exists, is live and, unless alloca'd later, has
// memory; and that [offset, offset + length) lies inside it.
static kiln_status_t kiln_replay_check_buffer_range(
    kiln_replay_loader_t* loader, uint32_t id, uint64_t offset, uint64_t length,
    const char* role) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  if (id >= file->buffer_count) {
    return kiln_replay_invalid(loader,
                               "%s names buffer %u but only %zu are "
                               "defined",
                               role, id, file->buffer_count);
  }
  if (loader->buffer_state[id] & KILN_REPLAY_BUFFER_RELEASED) {
    return kiln_replay_invalid(loader, "%s uses buffer %u after its release",
                               role, id);
  }
  const kiln_hal_replay_buffer_t* buffer = &file->buffers[id];
  if (buffer->origin == KILN_REPLAY_BUFFER_ORIGIN_ALLOCA &&
      !(loader->buffer_state[id] & KILN_REPLAY_BUFFER_ALLOCATED)) {
    return kiln_replay_invalid(loader, "%s uses buffer %u before its ALLOCA",
                               role, id);
  }
  if (offset > buffer->length || length > buffer->length - offset) {
    return kiln_replay_invalid(loader,
                               "%s range [%" PRIu64 ", %" PRIu64
                               ") is outside buffer %u of %" PRIu64 " bytes",
                               role, offset, offset + length, id,
                               buffer->length);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_read_ref(kiln_replay_loader_t* loader,
                                          kiln_replay_reader_t* reader,
                                          uint32_t binding_capacity,
                                          const char* role,
                                          kiln_hal_replay_ref_t* out_ref) {
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(reader, &out_ref->buffer));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(reader, &out_ref->slot));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u64(reader, &out_ref->offset));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u64(reader, &out_ref->length));
  if (out_ref->buffer == KILN_REPLAY_NO_BUFFER) {
    if (out_ref->slot >= binding_capacity) {
      return kiln_replay_invalid(loader,
                                 "%s uses binding slot %u but the command "
                                 "buffer has %u",
                                 role, out_ref->slot, binding_capacity);
    }
    return kiln_ok_status();
  }
  return kiln_replay_check_buffer_range(loader, out_ref->buffer,
                                        out_ref->offset, out_ref->length, role);
}

//===----------------------------------------------------------------------===//
// Records
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_replay_read_file_record(kiln_replay_loader_t* loader,
                                                  kiln_replay_reader_t* r) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  kiln_hal_replay_file_ref_t* ref = &file->files[file->file_count];
  uint64_t mtime = 0;
  uint32_t path_length = 0, reserved = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &ref->size));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &mtime));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &path_length));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
  const uint8_t* path = NULL;
  KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(r, path_length, &path));
  if (path_length == 0 || memchr(path, 0, path_length)) {
    return kiln_replay_invalid(loader, "bad file path");
  }
  ref->mtime_ns = (int64_t)mtime;
  ref->path = kiln_make_string_view((const char*)path, path_length);
  file->file_count++;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_read_buffer_record(
    kiln_replay_loader_t* loader, kiln_replay_reader_t* r) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  kiln_hal_replay_buffer_t* buffer = &file->buffers[file->buffer_count];
  uint32_t origin = 0, contents = 0, reserved = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &buffer->length));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &origin));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &buffer->params.type));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &buffer->params.access));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &buffer->params.usage));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &contents));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
  if (origin > KILN_REPLAY_BUFFER_ORIGIN_ALLOCA) {
    return kiln_replay_invalid(loader, "unknown buffer origin %u", origin);
  }
  if (buffer->length > ((uint64_t)1 << 48)) {
    return kiln_replay_invalid(loader, "buffer length %" PRIu64 " is too large",
                               buffer->length);
  }
  buffer->origin = (kiln_replay_buffer_origin_t)origin;
  buffer->contents = (kiln_replay_contents_t)contents;
  switch (contents) {
    case KILN_REPLAY_CONTENTS_UNDEFINED:
    case KILN_REPLAY_CONTENTS_ZERO:
      break;
    case KILN_REPLAY_CONTENTS_BLOB: {
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &buffer->blob));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
      if (buffer->blob >= file->blob_count) {
        return kiln_replay_invalid(loader, "names blob %u of %zu", buffer->blob,
                                   file->blob_count);
      }
      if (file->blobs[buffer->blob].length != buffer->length) {
        return kiln_replay_invalid(
            loader, "blob %u has %" PRIu64 " bytes, the buffer %" PRIu64,
            buffer->blob, file->blobs[buffer->blob].length, buffer->length);
      }
      break;
    }
    case KILN_REPLAY_CONTENTS_FILE: {
      uint32_t validation = 0;
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &buffer->file));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &validation));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &buffer->file_offset));
      KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(r, 32, &buffer->digest));
      if (buffer->file >= file->file_count) {
        return kiln_replay_invalid(loader, "names file %u of %zu", buffer->file,
                                   file->file_count);
      }
      if (validation != KILN_REPLAY_VALIDATION_IDENTITY &&
          validation != KILN_REPLAY_VALIDATION_DIGEST) {
        return kiln_replay_invalid(loader, "unknown file validation %u",
                                   validation);
      }
      buffer->validation = (kiln_replay_validation_t)validation;
      uint64_t size = file->files[buffer->file].size;
      if (buffer->file_offset > size ||
          buffer->length > size - buffer->file_offset) {
        return kiln_replay_invalid(
            loader,
            "file range [%" PRIu64 ", +%" PRIu64 ") is outside the %" PRIu64
            " bytes of file %u",
            buffer->file_offset, buffer->length, size, buffer->file);
      }
      break;
    }
    case KILN_REPLAY_CONTENTS_RANGES: {
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &buffer->range_count));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
      if ((uint64_t)buffer->range_count * 24 > r->size - r->position) {
        return kiln_replay_invalid(loader, "%u ranges do not fit the record",
                                   buffer->range_count);
      }
      KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(
          loader->impl, buffer->range_count, sizeof(*buffer->ranges),
          (void**)&buffer->ranges));
      for (uint32_t i = 0; i < buffer->range_count; ++i) {
        kiln_hal_replay_range_t* range = &buffer->ranges[i];
        KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &range->offset));
        KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &range->length));
        KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &range->blob));
        KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
        if (range->blob >= file->blob_count ||
            file->blobs[range->blob].length != range->length ||
            range->offset > buffer->length ||
            range->length > buffer->length - range->offset) {
          return kiln_replay_invalid(
              loader,
              "range %u ([%" PRIu64 ", +%" PRIu64 ") from blob %u) is invalid",
              i, range->offset, range->length, range->blob);
        }
      }
      break;
    }
    default:
      return kiln_replay_invalid(loader, "unknown buffer contents kind %u",
                                 contents);
  }
  file->buffer_count++;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_read_executable_record(
    kiln_replay_loader_t* loader, kiln_replay_reader_t* r) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  kiln_hal_replay_executable_t* exe =
      &file->executables[file->executable_count];
  uint32_t entry_count = 0, constant_count = 0, format_length = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &exe->blob));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &entry_count));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &constant_count));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &format_length));
  if (exe->blob >= file->blob_count) {
    return kiln_replay_invalid(loader, "names blob %u of %zu", exe->blob,
                               file->blob_count);
  }
  const uint8_t* format = NULL;
  KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(r, format_length, &format));
  KILN_RETURN_IF_ERROR(kiln_replay_read_align(r, 4));
  if (format_length == 0 || memchr(format, 0, format_length)) {
    return kiln_replay_invalid(loader, "bad executable format string");
  }
  exe->format = kiln_make_string_view((const char*)format, format_length);
  if (file->minor_version >= 1) {
    KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(r, 32, &exe->digest));
    const kiln_hal_replay_blob_t* blob = &file->blobs[exe->blob];
    kiln_sha256_digest_t digest = kiln_sha256(blob->data, blob->length);
    if (memcmp(digest.bytes, exe->digest, 32) != 0) {
      return kiln_replay_invalid(loader,
                                 "executable's blob %u does not match its "
                                 "SHA-256 digest",
                                 exe->blob);
    }
  }
  if ((uint64_t)constant_count * 4 > r->size - r->position ||
      (uint64_t)entry_count * 24 > r->size - r->position) {
    return kiln_replay_invalid(loader,
                               "%u constants / %u entry points do not fit "
                               "the record",
                               constant_count, entry_count);
  }
  exe->constant_count = constant_count;
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(loader->impl, constant_count, 4,
                                                (void**)&exe->constants));
  for (uint32_t i = 0; i < constant_count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &exe->constants[i]));
  }
  exe->entry_point_count = entry_count;
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(loader->impl, entry_count,
                                                sizeof(*exe->entry_points),
                                                (void**)&exe->entry_points));
  for (uint32_t i = 0; i < entry_count; ++i) {
    kiln_hal_executable_entry_point_info_t* info = &exe->entry_points[i];
    uint32_t name_length = 0, location_length = 0;
    for (int j = 0; j < 3; ++j) {
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &info->workgroup_size[j]));
    }
    KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &info->local_memory_size));
    KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &name_length));
    KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &location_length));
    const uint8_t* name = NULL;
    const uint8_t* location = NULL;
    KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(r, name_length, &name));
    KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(r, location_length, &location));
    KILN_RETURN_IF_ERROR(kiln_replay_read_align(r, 4));
    info->name = kiln_make_string_view((const char*)name, name_length);
    info->source_location =
        kiln_make_string_view((const char*)location, location_length);
  }
  file->executable_count++;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_read_command(
    kiln_replay_loader_t* loader, kiln_replay_reader_t* r,
    const kiln_hal_replay_command_buffer_t* cb, uint32_t index,
    kiln_hal_replay_command_t* command) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  size_t start = r->position;
  uint32_t type = 0, length = 0, reserved = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &type));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &length));
  if (length < 8 || length % 8 || length > r->size - start) {
    return kiln_replay_invalid(loader, "command %u has bad length %u", index,
                               length);
  }
  kiln_replay_reader_t body = {r->data + start, length, 8, loader->what};
  command->type = (kiln_replay_command_type_t)type;
  uint32_t capacity = cb->binding_capacity;
  switch (type) {
    case KILN_REPLAY_COMMAND_BARRIER:
      break;
    case KILN_REPLAY_COMMAND_FILL:
      KILN_RETURN_IF_ERROR(kiln_replay_read_ref(
          loader, &body, capacity, "fill target", &command->target));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(&body, &command->pattern));
      KILN_RETURN_IF_ERROR(
          kiln_replay_read_u32(&body, &command->pattern_length));
      if (command->pattern_length != 1 && command->pattern_length != 2 &&
          command->pattern_length != 4) {
        return kiln_replay_invalid(loader,
                                   "command %u: fill pattern of %u "
                                   "bytes",
                                   index, command->pattern_length);
      }
      break;
    case KILN_REPLAY_COMMAND_UPDATE:
      KILN_RETURN_IF_ERROR(kiln_replay_read_ref(
          loader, &body, capacity, "update target", &command->target));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u64(&body, &command->length));
      KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(&body, command->length,
                                                  &command->update_data));
      break;
    case KILN_REPLAY_COMMAND_COPY:
      KILN_RETURN_IF_ERROR(kiln_replay_read_ref(
          loader, &body, capacity, "copy source", &command->source));
      KILN_RETURN_IF_ERROR(kiln_replay_read_ref(
          loader, &body, capacity, "copy target", &command->target));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u64(&body, &command->length));
      break;
    case KILN_REPLAY_COMMAND_DISPATCH: {
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(&body, &command->executable));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(&body, &command->entry_point));
      for (int j = 0; j < 3; ++j) {
        KILN_RETURN_IF_ERROR(
            kiln_replay_read_u32(&body, &command->workgroup_count[j]));
      }
      KILN_RETURN_IF_ERROR(
          kiln_replay_read_u32(&body, &command->constant_count));
      KILN_RETURN_IF_ERROR(
          kiln_replay_read_u32(&body, &command->binding_count));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(&body, &reserved));
      if (command->executable >= file->executable_count) {
        return kiln_replay_invalid(
            loader, "command %u dispatches executable %u of %zu", index,
            command->executable, file->executable_count);
      }
      const kiln_hal_replay_executable_t* exe =
          &file->executables[command->executable];
      if (exe->entry_point_count &&
          command->entry_point >= exe->entry_point_count) {
        return kiln_replay_invalid(loader,
                                   "command %u dispatches entry point %u of "
                                   "executable %u, which has %zu",
                                   index, command->entry_point,
                                   command->executable, exe->entry_point_count);
      }
      if (command->constant_count > KILN_HAL_MAX_PUSH_CONSTANT_COUNT ||
          command->binding_count > KILN_HAL_MAX_DISPATCH_BINDING_COUNT) {
        return kiln_replay_invalid(loader,
                                   "command %u has %u constants and %u "
                                   "bindings (at most %d and %d)",
                                   index, command->constant_count,
                                   command->binding_count,
                                   KILN_HAL_MAX_PUSH_CONSTANT_COUNT,
                                   KILN_HAL_MAX_DISPATCH_BINDING_COUNT);
      }
      KILN_RETURN_IF_ERROR(
          kiln_replay_arena_calloc(loader->impl, command->constant_count, 4,
                                   (void**)&command->constants));
      for (uint32_t j = 0; j < command->constant_count; ++j) {
        KILN_RETURN_IF_ERROR(
            kiln_replay_read_u32(&body, &command->constants[j]));
      }
      KILN_RETURN_IF_ERROR(kiln_replay_read_align(&body, 8));
      KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(
          loader->impl, command->binding_count, sizeof(*command->bindings),
          (void**)&command->bindings));
      for (uint32_t j = 0; j < command->binding_count; ++j) {
        KILN_RETURN_IF_ERROR(kiln_replay_read_ref(loader, &body, capacity,
                                                  "dispatch binding",
                                                  &command->bindings[j]));
      }
      break;
    }
    default:
      return kiln_replay_invalid(loader, "command %u has unknown type %u",
                                 index, type);
  }
  r->position = start + length;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_read_command_buffer_record(
    kiln_replay_loader_t* loader, kiln_replay_reader_t* r) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  kiln_hal_replay_command_buffer_t* cb =
      &file->command_buffers[file->command_buffer_count];
  uint32_t reserved = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &cb->mode));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &cb->binding_capacity));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &cb->command_count));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
  if ((uint64_t)cb->command_count * 8 > r->size - r->position) {
    return kiln_replay_invalid(loader, "%u commands do not fit the record",
                               cb->command_count);
  }
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(loader->impl, cb->command_count,
                                                sizeof(*cb->commands),
                                                (void**)&cb->commands));
  for (uint32_t i = 0; i < cb->command_count; ++i) {
    KILN_RETURN_IF_ERROR(
        kiln_replay_read_command(loader, r, cb, i, &cb->commands[i]));
  }
  file->command_buffer_count++;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_read_execute(kiln_replay_loader_t* loader,
                                              kiln_replay_reader_t* r,
                                              kiln_hal_replay_op_t* op) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  uint32_t reserved = 0;
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->execution_count));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
  if ((uint64_t)op->execution_count * 8 > r->size - r->position) {
    return kiln_replay_invalid(loader, "%u command buffers do not fit",
                               op->execution_count);
  }
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(
      loader->impl, op->execution_count, sizeof(*op->executions),
      (void**)&op->executions));
  for (uint32_t i = 0; i < op->execution_count; ++i) {
    kiln_hal_replay_execution_t* e = &op->executions[i];
    KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &e->command_buffer));
    KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &e->binding_count));
    if (e->command_buffer >= file->command_buffer_count ||
        loader->command_buffer_released[e->command_buffer]) {
      return kiln_replay_invalid(loader,
                                 "executes command buffer %u, which is not "
                                 "defined or was released",
                                 e->command_buffer);
    }
    if ((uint64_t)e->binding_count * 24 > r->size - r->position) {
      return kiln_replay_invalid(loader, "%u bindings do not fit",
                                 e->binding_count);
    }
    KILN_RETURN_IF_ERROR(
        kiln_replay_arena_calloc(loader->impl, e->binding_count,
                                 sizeof(*e->bindings), (void**)&e->bindings));
    for (uint32_t j = 0; j < e->binding_count; ++j) {
      kiln_hal_replay_binding_t* b = &e->bindings[j];
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &b->buffer));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &reserved));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &b->offset));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &b->length));
      if (b->buffer == KILN_REPLAY_NO_BUFFER) continue;
      KILN_RETURN_IF_ERROR(kiln_replay_check_buffer_range(
          loader, b->buffer, b->offset, b->length, "binding"));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_read_result(kiln_replay_loader_t* loader,
                                             kiln_replay_reader_t* r,
                                             kiln_hal_replay_op_t* op) {
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->id));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->element_type));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->encoding));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->rank));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &op->offset));
  KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &op->length));
  if (op->rank > 16) {
    return kiln_replay_invalid(loader, "result of rank %u (at most 16)",
                               op->rank);
  }
  KILN_RETURN_IF_ERROR(
      kiln_replay_arena_calloc(loader->impl, op->rank ? op->rank : 1,
                               sizeof(*op->dims), (void**)&op->dims));
  for (uint32_t i = 0; i < op->rank; ++i) {
    uint64_t dim = 0;
    KILN_RETURN_IF_ERROR(kiln_replay_read_u64(r, &dim));
    op->dims[i] = (kiln_hal_dim_t)dim;
  }
  uint64_t expected = 0;
  kiln_status_t status = kiln_hal_compute_dense_byte_length(
      op->rank, op->dims, op->element_type, &expected);
  if (status || expected != op->length) {
    kiln_status_free(status);
    return kiln_replay_invalid(
        loader, "result shape does not match its %" PRIu64 " bytes",
        op->length);
  }
  return kiln_replay_check_buffer_range(loader, op->id, op->offset, op->length,
                                        "result");
}

// Reads an operation (or per-stream definition) record into |op|.
static kiln_status_t kiln_replay_read_op(kiln_replay_loader_t* loader,
                                         uint32_t type, kiln_replay_reader_t* r,
                                         kiln_hal_replay_op_t* op) {
  kiln_hal_replay_file_t* file = &loader->impl->file;
  uint32_t a = 0, b = 0;
  switch (type) {
    case KILN_REPLAY_RECORD_BUFFER:
      op->id = (uint32_t)file->buffer_count;
      return kiln_replay_read_buffer_record(loader, r);
    case KILN_REPLAY_RECORD_COMMAND_BUFFER:
      op->id = (uint32_t)file->command_buffer_count;
      return kiln_replay_read_command_buffer_record(loader, r);
    case KILN_REPLAY_RECORD_EXECUTE:
      return kiln_replay_read_execute(loader, r, op);
    case KILN_REPLAY_RECORD_ALLOCA:
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->id));
      if (op->id >= file->buffer_count ||
          file->buffers[op->id].origin != KILN_REPLAY_BUFFER_ORIGIN_ALLOCA ||
          loader->buffer_state[op->id]) {
        return kiln_replay_invalid(loader,
                                   "ALLOCA of buffer %u, which is not a "
                                   "defined alloca buffer or was already "
                                   "allocated",
                                   op->id);
      }
      loader->buffer_state[op->id] |= KILN_REPLAY_BUFFER_ALLOCATED;
      return kiln_ok_status();
    case KILN_REPLAY_RECORD_DEALLOCA:
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->id));
      return kiln_replay_check_buffer_range(loader, op->id, 0, 0, "DEALLOCA");
    case KILN_REPLAY_RECORD_SCOPE_BEGIN: {
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &a));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &b));
      const uint8_t* name = NULL;
      KILN_RETURN_IF_ERROR(kiln_replay_read_bytes(r, a, &name));
      if (loader->scope_open) {
        return kiln_replay_invalid(loader, "scope opened inside a scope");
      }
      loader->scope_open = true;
      op->scope_name = kiln_make_string_view((const char*)name, a);
      file->scope_count++;
      return kiln_ok_status();
    }
    case KILN_REPLAY_RECORD_SCOPE_END:
      if (!loader->scope_open) {
        return kiln_replay_invalid(loader, "SCOPE_END without a scope");
      }
      loader->scope_open = false;
      return kiln_ok_status();
    case KILN_REPLAY_RECORD_RESULT:
      return kiln_replay_read_result(loader, r, op);
    case KILN_REPLAY_RECORD_RELEASE:
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->release_kind));
      KILN_RETURN_IF_ERROR(kiln_replay_read_u32(r, &op->id));
      if (op->release_kind == KILN_REPLAY_RELEASE_BUFFER) {
        if (op->id >= file->buffer_count ||
            (loader->buffer_state[op->id] & KILN_REPLAY_BUFFER_RELEASED)) {
          return kiln_replay_invalid(loader,
                                     "releases buffer %u twice or "
                                     "before its definition",
                                     op->id);
        }
        loader->buffer_state[op->id] |= KILN_REPLAY_BUFFER_RELEASED;
      } else if (op->release_kind == KILN_REPLAY_RELEASE_COMMAND_BUFFER) {
        if (op->id >= file->command_buffer_count ||
            loader->command_buffer_released[op->id]) {
          return kiln_replay_invalid(loader,
                                     "releases command buffer %u twice or "
                                     "before its definition",
                                     op->id);
        }
        loader->command_buffer_released[op->id] = 1;
      } else {
        return kiln_replay_invalid(loader, "unknown release kind %u",
                                   op->release_kind);
      }
      return kiln_ok_status();
    default:
      return kiln_replay_invalid(loader, "unknown record type %u", type);
  }
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_replay_parse(kiln_replay_file_impl_t* impl) {
  kiln_hal_replay_file_t* file = &impl->file;
  const uint8_t* data = file->data;
  uint64_t length = file->length;
  if (length < KILN_REPLAY_HEADER_SIZE ||
      memcmp(data + KILN_REPLAY_HEADER_MAGIC, KILN_REPLAY_MAGIC, 8)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "not a kiln replay file (bad magic or shorter "
                            "than the %d byte header)",
                            KILN_REPLAY_HEADER_SIZE);
  }
  memcpy(&file->major_version, data + KILN_REPLAY_HEADER_MAJOR, 2);
  memcpy(&file->minor_version, data + KILN_REPLAY_HEADER_MINOR, 2);
  if (file->major_version != KILN_REPLAY_MAJOR_VERSION) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "replay format version %u.%u is not supported by "
                            "this runtime (supports %d.x)",
                            file->major_version, file->minor_version,
                            KILN_REPLAY_MAJOR_VERSION);
  }
  uint64_t stated_length = kiln_replay_load_u64(data + 16);
  if (stated_length != length) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "replay file is %" PRIu64
                            " bytes but its header says %" PRIu64
                            " (truncated or extended)",
                            length, stated_length);
  }
  uint32_t stated_crc = kiln_replay_load_u32(data + KILN_REPLAY_HEADER_CRC32);
  uint32_t zero = 0;
  uint32_t crc = kiln_crc32(data, KILN_REPLAY_HEADER_CRC32);
  crc = kiln_crc32_update(crc, &zero, 4);
  crc = kiln_crc32_update(crc, data + KILN_REPLAY_HEADER_CRC32 + 4,
                          (size_t)length - KILN_REPLAY_HEADER_CRC32 - 4);
  if (crc != stated_crc) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "replay file CRC-32 mismatch (0x%08x computed, "
                            "0x%08x stored): the file is corrupted",
                            crc, stated_crc);
  }
  file->record_count =
      kiln_replay_load_u32(data + KILN_REPLAY_HEADER_RECORD_COUNT);
  memcpy(file->device_id, data + KILN_REPLAY_HEADER_DEVICE_ID, 23);
  file->device_id[23] = 0;
  // Every table is bounded by the record count, itself bounded by the size.
  size_t max_records = (size_t)(length / KILN_REPLAY_RECORD_HEADER_SIZE);
  if (file->record_count > max_records) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "replay header claims %u records; at most %zu "
                            "fit in %" PRIu64 " bytes",
                            file->record_count, max_records, length);
  }
  size_t n = file->record_count;
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(impl, n, sizeof(*file->blobs),
                                                (void**)&file->blobs));
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(impl, n, sizeof(*file->files),
                                                (void**)&file->files));
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(impl, n, sizeof(*file->buffers),
                                                (void**)&file->buffers));
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(
      impl, n, sizeof(*file->executables), (void**)&file->executables));
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(
      impl, n, sizeof(*file->command_buffers), (void**)&file->command_buffers));
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(impl, n, sizeof(*file->ops),
                                                (void**)&file->ops));
  kiln_replay_loader_t loader = {impl, NULL, NULL, false, {0}};
  KILN_RETURN_IF_ERROR(
      kiln_replay_arena_calloc(impl, n, 1, (void**)&loader.buffer_state));
  KILN_RETURN_IF_ERROR(kiln_replay_arena_calloc(
      impl, n, 1, (void**)&loader.command_buffer_released));
  uint64_t position = KILN_REPLAY_HEADER_SIZE;
  for (uint32_t index = 0; index < file->record_count; ++index) {
    if (position + KILN_REPLAY_RECORD_HEADER_SIZE > length) {
      return kiln_make_status(KILN_STATUS_DATA_LOSS,
                              "replay record %u at offset %" PRIu64
                              " is past the end of the file (%u records "
                              "expected)",
                              index, position, file->record_count);
    }
    uint32_t type = kiln_replay_load_u32(data + position);
    uint64_t payload_length = kiln_replay_load_u64(data + position + 8);
    uint64_t payload_start = position + KILN_REPLAY_RECORD_HEADER_SIZE;
    if (payload_length > length - payload_start) {
      return kiln_make_status(KILN_STATUS_DATA_LOSS,
                              "replay record %u (%s) at offset %" PRIu64
                              " has a %" PRIu64
                              " byte payload that runs past the end of the "
                              "file",
                              index, kiln_hal_replay_record_type_name(type),
                              position, payload_length);
    }
    snprintf(loader.what, sizeof(loader.what),
             "replay record %u (%s) at offset %" PRIu64, index,
             kiln_hal_replay_record_type_name(type), position);
    kiln_replay_reader_t reader = {data + payload_start, (size_t)payload_length,
                                   0, loader.what};
    kiln_status_t status = kiln_ok_status();
    if (type == KILN_REPLAY_RECORD_BLOB) {
      file->blobs[file->blob_count].data = reader.data;
      file->blobs[file->blob_count].length = payload_length;
      file->blob_count++;
    } else if (type == KILN_REPLAY_RECORD_FILE) {
      status = kiln_replay_read_file_record(&loader, &reader);
    } else if (type == KILN_REPLAY_RECORD_EXECUTABLE) {
      status = kiln_replay_read_executable_record(&loader, &reader);
    } else if (type >= KILN_REPLAY_RECORD_OPTIONAL_BASE) {
      // Optional content of a newer minor version: skipped.
    } else {
      kiln_hal_replay_op_t* op = &file->ops[file->op_count];
      op->type = (kiln_replay_record_type_t)type;
      op->file_offset = position;
      status = kiln_replay_read_op(&loader, type, &reader, op);
      if (!status) file->op_count++;
    }
    if (status) return status;
    position = kiln_align_up(payload_start + payload_length,
                             KILN_REPLAY_RECORD_ALIGNMENT);
    if (position > length) position = length;
  }
  if (position != length) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "replay file has %" PRIu64
                            " bytes after its %u records",
                            length - position, file->record_count);
  }
  if (loader.scope_open) {
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "replay file ends inside a scope");
  }
  return kiln_ok_status();
}

kiln_status_t kiln_hal_replay_file_load_memory(
    const void* data, size_t length, kiln_allocator_t allocator,
    kiln_hal_replay_file_t** out_file) {
  *out_file = NULL;
  kiln_replay_file_impl_t* impl = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*impl), (void**)&impl));
  impl->file.allocator = allocator;
  kiln_status_t status = kiln_allocator_malloc(allocator, length ? length : 1,
                                               (void**)&impl->file.data);
  if (!status) {
    if (length) memcpy(impl->file.data, data, length);
    impl->file.length = length;
    status = kiln_replay_parse(impl);
  }
  if (status) {
    kiln_hal_replay_file_free(&impl->file);
    return status;
  }
  *out_file = &impl->file;
  return kiln_ok_status();
}

kiln_status_t kiln_hal_replay_file_load(const char* path,
                                        kiln_allocator_t allocator,
                                        kiln_hal_replay_file_t** out_file) {
  *out_file = NULL;
  FILE* stream = fopen(path, "rb");
  if (!stream) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "cannot open replay file '%s': %s", path,
                            strerror(errno));
  }
  uint8_t* data = NULL;
  size_t size = 0, capacity = 0;
  kiln_status_t status = kiln_ok_status();
  for (;;) {
    if (size == capacity) {
      capacity = capacity ? capacity * 2 : 65536;
      status = kiln_allocator_realloc(allocator, capacity, (void**)&data);
      if (status) break;
    }
    size_t n = fread(data + size, 1, capacity - size, stream);
    size += n;
    if (n == 0) break;
  }
  if (!status && ferror(stream)) {
    status = kiln_make_status(KILN_STATUS_DATA_LOSS,
                              "reading replay file '%s' failed", path);
  }
  fclose(stream);
  if (!status) {
    status = kiln_hal_replay_file_load_memory(data, size, allocator, out_file);
  }
  kiln_allocator_free(allocator, data);
  if (status && !strstr(kiln_status_message(status), path)) {
    status = kiln_status_annotate_f(status, "loading replay '%s'", path);
  }
  return status;
}

void kiln_hal_replay_file_free(kiln_hal_replay_file_t* file) {
  if (!file) return;
  kiln_replay_file_impl_t* impl = (kiln_replay_file_impl_t*)file;
  kiln_allocator_t allocator = file->allocator;
  while (impl->blocks) {
    kiln_replay_arena_block_t* next = impl->blocks->next;
    kiln_allocator_free(allocator, impl->blocks);
    impl->blocks = next;
  }
  kiln_allocator_free(allocator, file->data);
  kiln_allocator_free(allocator, impl);
}
