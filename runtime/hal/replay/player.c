#include "runtime/hal/replay/player.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/sha256.h"

// Pending releases beyond this count make the player wait for its queue.
#define KILN_REPLAY_MAX_PENDING_RELEASES 256

typedef struct kiln_replay_mapped_file_t {
  void* data;
  uint64_t size;
} kiln_replay_mapped_file_t;

typedef struct kiln_replay_result_t {
  kiln_hal_buffer_view_t* view;
} kiln_replay_result_t;

struct kiln_hal_replay_player_t {
  kiln_allocator_t allocator;
  const kiln_hal_replay_file_t* file;
  kiln_hal_device_t* device;
  kiln_replay_mapped_file_t* files;
  kiln_hal_executable_t** executables;
  // Per run.
  kiln_hal_buffer_t** buffers;
  kiln_hal_command_buffer_t** command_buffers;
  kiln_hal_semaphore_t* timeline;
  uint64_t timeline_value;
  void** pending;  // objects (buffers, command buffers) to release
  size_t pending_count;
  kiln_hal_buffer_view_t** results;
  size_t result_count;
};

//===----------------------------------------------------------------------===//
// Creation: files and executables
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_replay_map_file(const kiln_hal_replay_file_ref_t* ref,
                                          bool check_identity,
                                          kiln_replay_mapped_file_t* out) {
  char path[4096];
  if (ref->path.size >= sizeof(path)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "replay file path is too long");
  }
  memcpy(path, ref->path.data, ref->path.size);
  path[ref->path.size] = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND,
                            "cannot open '%s', referenced by the replay: %s",
                            path, strerror(errno));
  }
  struct stat info;
  if (fstat(fd, &info) != 0) {
    close(fd);
    return kiln_make_status(KILN_STATUS_DATA_LOSS, "cannot stat '%s'", path);
  }
  int64_t mtime_ns =
      (int64_t)info.st_mtim.tv_sec * 1000000000ll + info.st_mtim.tv_nsec;
  if (check_identity &&
      ((uint64_t)info.st_size != ref->size || mtime_ns != ref->mtime_ns)) {
    close(fd);
    return kiln_make_status(
        KILN_STATUS_DATA_LOSS,
        "'%s' changed since the replay was recorded (identity check: size "
        "%" PRIu64 " / mtime %" PRId64 " ns recorded, now %" PRIu64
        " / %" PRId64 "); record again or use digest validation",
        path, ref->size, ref->mtime_ns, (uint64_t)info.st_size, mtime_ns);
  }
  if ((uint64_t)info.st_size < ref->size) {
    close(fd);
    return kiln_make_status(KILN_STATUS_DATA_LOSS,
                            "'%s' is %" PRIu64
                            " bytes, shorter than the %" PRIu64 " recorded",
                            path, (uint64_t)info.st_size, ref->size);
  }
  void* data = NULL;
  if (ref->size) {
    data = mmap(NULL, (size_t)ref->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (data == MAP_FAILED) {
      close(fd);
      return kiln_make_status(KILN_STATUS_DATA_LOSS, "cannot map '%s': %s",
                              path, strerror(errno));
    }
  }
  close(fd);
  out->data = data;
  out->size = ref->size;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_player_prepare(kiln_hal_replay_player_t* p) {
  const kiln_hal_replay_file_t* file = p->file;
  for (size_t i = 0; i < file->file_count; ++i) {
    bool identity = false;
    for (size_t j = 0; j < file->buffer_count; ++j) {
      const kiln_hal_replay_buffer_t* b = &file->buffers[j];
      if (b->contents == KILN_REPLAY_CONTENTS_FILE && b->file == i &&
          b->validation == KILN_REPLAY_VALIDATION_IDENTITY) {
        identity = true;
        break;
      }
    }
    KILN_RETURN_IF_ERROR(
        kiln_replay_map_file(&file->files[i], identity, &p->files[i]));
  }
  // Digests: each distinct (file, offset, length) once.
  for (size_t j = 0; j < file->buffer_count; ++j) {
    const kiln_hal_replay_buffer_t* b = &file->buffers[j];
    if (b->contents != KILN_REPLAY_CONTENTS_FILE ||
        b->validation != KILN_REPLAY_VALIDATION_DIGEST) {
      continue;
    }
    bool seen = false;
    for (size_t k = 0; k < j && !seen; ++k) {
      const kiln_hal_replay_buffer_t* o = &file->buffers[k];
      seen = o->contents == KILN_REPLAY_CONTENTS_FILE &&
             o->validation == KILN_REPLAY_VALIDATION_DIGEST &&
             o->file == b->file && o->file_offset == b->file_offset &&
             o->length == b->length && !memcmp(o->digest, b->digest, 32);
    }
    if (seen) continue;
    kiln_sha256_digest_t digest =
        kiln_sha256((const uint8_t*)p->files[b->file].data + b->file_offset,
                    (size_t)b->length);
    if (memcmp(digest.bytes, b->digest, 32)) {
      const kiln_hal_replay_file_ref_t* ref = &file->files[b->file];
      return kiln_make_status(
          KILN_STATUS_DATA_LOSS,
          "'%.*s' changed since the replay was recorded: the SHA-256 of bytes "
          "[%" PRIu64 ", +%" PRIu64
          ") (buffer %zu) does not match the "
          "recorded digest",
          KILN_SV_ARG(ref->path), b->file_offset, b->length, j);
    }
  }
  kiln_hal_executable_cache_t* cache = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_hal_device_create_executable_cache(p->device, &cache));
  kiln_status_t status = kiln_ok_status();
  for (size_t i = 0; i < file->executable_count && !status; ++i) {
    const kiln_hal_replay_executable_t* exe = &file->executables[i];
    // Native code from a file without digests (format 1.0) is refused: its
    // CRC alone cannot tell a corrupted shared object from a good one.
    if (!exe->digest && exe->format.size >= 7 &&
        memcmp(exe->format.data, "native-", 7) == 0) {
      status = kiln_make_status(
          KILN_STATUS_FAILED_PRECONDITION,
          "replay executable %zu: native format '%.*s' without a SHA-256 "
          "digest (replay format 1.0); record the replay again",
          i, KILN_SV_ARG(exe->format));
      break;
    }
    kiln_hal_executable_params_t params;
    memset(&params, 0, sizeof(params));
    params.format = exe->format;
    params.data = file->blobs[exe->blob].data;
    params.data_length = (size_t)file->blobs[exe->blob].length;
    params.entry_point_count = exe->entry_point_count;
    params.entry_points = exe->entry_points;
    params.constant_count = exe->constant_count;
    params.constants = exe->constants;
    status = kiln_hal_executable_cache_prepare_executable(cache, &params,
                                                          &p->executables[i]);
    if (status) {
      status =
          kiln_status_annotate_f(status, "preparing replay executable %zu", i);
    }
  }
  kiln_hal_executable_cache_release(cache);
  return status;
}

kiln_status_t kiln_hal_replay_player_create(const kiln_hal_replay_file_t* file,
                                            kiln_hal_device_t* device,
                                            kiln_allocator_t host_allocator,
                                            kiln_hal_replay_player_t** out) {
  *out = NULL;
  kiln_hal_replay_player_t* p = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(host_allocator, sizeof(*p), (void**)&p));
  p->allocator = host_allocator;
  p->file = file;
  kiln_hal_device_retain(device);
  p->device = device;
  size_t n = file->record_count + 1;
  kiln_status_t status = kiln_allocator_calloc(
      host_allocator, (file->file_count + 1) * sizeof(*p->files),
      (void**)&p->files);
  if (!status) {
    status = kiln_allocator_calloc(
        host_allocator, (file->executable_count + 1) * sizeof(*p->executables),
        (void**)&p->executables);
  }
  if (!status) {
    status = kiln_allocator_calloc(
        host_allocator, (file->buffer_count + 1) * sizeof(*p->buffers),
        (void**)&p->buffers);
  }
  if (!status) {
    status = kiln_allocator_calloc(
        host_allocator,
        (file->command_buffer_count + 1) * sizeof(*p->command_buffers),
        (void**)&p->command_buffers);
  }
  if (!status) {
    status = kiln_allocator_calloc(host_allocator, n * sizeof(*p->pending),
                                   (void**)&p->pending);
  }
  if (!status) {
    status = kiln_allocator_calloc(host_allocator, n * sizeof(*p->results),
                                   (void**)&p->results);
  }
  if (!status) status = kiln_replay_player_prepare(p);
  if (status) {
    kiln_hal_replay_player_free(p);
    return status;
  }
  *out = p;
  return kiln_ok_status();
}

static void kiln_replay_player_clear_results(kiln_hal_replay_player_t* p) {
  for (size_t i = 0; i < p->result_count; ++i) {
    kiln_hal_buffer_view_release(p->results[i]);
  }
  p->result_count = 0;
}

void kiln_hal_replay_player_free(kiln_hal_replay_player_t* p) {
  if (!p) return;
  kiln_replay_player_clear_results(p);
  if (p->executables) {
    for (size_t i = 0; i < p->file->executable_count; ++i) {
      if (p->executables[i]) kiln_hal_executable_release(p->executables[i]);
    }
  }
  if (p->files) {
    for (size_t i = 0; i < p->file->file_count; ++i) {
      if (p->files[i].data) munmap(p->files[i].data, (size_t)p->files[i].size);
    }
  }
  kiln_allocator_free(p->allocator, p->files);
  kiln_allocator_free(p->allocator, p->executables);
  kiln_allocator_free(p->allocator, p->buffers);
  kiln_allocator_free(p->allocator, p->command_buffers);
  kiln_allocator_free(p->allocator, p->pending);
  kiln_allocator_free(p->allocator, p->results);
  kiln_hal_device_release(p->device);
  kiln_allocator_free(p->allocator, p);
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

// Waits for every operation issued so far, then releases pending objects.
static kiln_status_t kiln_replay_player_wait(kiln_hal_replay_player_t* p) {
  kiln_status_t status = kiln_ok_status();
  if (p->timeline) {
    status = kiln_hal_semaphore_wait(p->timeline, p->timeline_value,
                                     KILN_HAL_INFINITE_DEADLINE);
  }
  for (size_t i = 0; i < p->pending_count; ++i) kiln_ref_release(p->pending[i]);
  p->pending_count = 0;
  return status;
}

// The wait and signal fences of the next queue operation.
static kiln_status_t kiln_replay_player_fences(kiln_hal_replay_player_t* p,
                                               kiln_hal_fence_t** out_wait,
                                               kiln_hal_fence_t** out_signal) {
  *out_wait = NULL;
  *out_signal = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_fence_create_at(p->timeline, p->timeline_value,
                                                p->allocator, out_wait));
  kiln_status_t status = kiln_hal_fence_create_at(
      p->timeline, p->timeline_value + 1, p->allocator, out_signal);
  if (status) {
    kiln_hal_fence_release(*out_wait);
    *out_wait = NULL;
    return status;
  }
  p->timeline_value++;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_player_define_buffer(
    kiln_hal_replay_player_t* p, uint32_t id) {
  const kiln_hal_replay_file_t* file = p->file;
  const kiln_hal_replay_buffer_t* b = &file->buffers[id];
  if (b->origin == KILN_REPLAY_BUFFER_ORIGIN_ALLOCA) return kiln_ok_status();
  kiln_hal_buffer_t* buffer = NULL;
  if (b->contents == KILN_REPLAY_CONTENTS_FILE &&
      !(b->params.access & KILN_HAL_MEMORY_ACCESS_WRITE)) {
    // Read-only file data is used in place, as the module's rodata was.
    kiln_hal_buffer_release_callback_t none = {NULL, NULL};
    uint8_t* data = (uint8_t*)p->files[b->file].data + b->file_offset;
    KILN_RETURN_IF_ERROR(kiln_hal_buffer_wrap(&b->params, data, b->length, none,
                                              p->allocator, &buffer));
  } else {
    KILN_RETURN_IF_ERROR(kiln_hal_allocator_allocate_buffer(
        kiln_hal_device_allocator(p->device), &b->params, b->length, &buffer));
    // Initialized through the host pointer: every kiln device is host
    // addressable, and read-only buffers must be filled too.
    uint8_t* data = kiln_hal_buffer_host_ptr(buffer);
    switch (b->contents) {
      case KILN_REPLAY_CONTENTS_BLOB:
        memcpy(data, file->blobs[b->blob].data, (size_t)b->length);
        break;
      case KILN_REPLAY_CONTENTS_FILE:
        memcpy(data, (uint8_t*)p->files[b->file].data + b->file_offset,
               (size_t)b->length);
        break;
      case KILN_REPLAY_CONTENTS_RANGES:
        memset(data, 0, (size_t)b->length);
        for (uint32_t i = 0; i < b->range_count; ++i) {
          const kiln_hal_replay_range_t* r = &b->ranges[i];
          memcpy(data + r->offset, file->blobs[r->blob].data,
                 (size_t)r->length);
        }
        break;
      default:
        memset(data, 0, (size_t)b->length);
        break;
    }
  }
  p->buffers[id] = buffer;
  return kiln_ok_status();
}

static kiln_hal_buffer_ref_t kiln_replay_player_ref(
    kiln_hal_replay_player_t* p, const kiln_hal_replay_ref_t* ref) {
  if (ref->buffer == KILN_REPLAY_NO_BUFFER) {
    return kiln_hal_make_indirect_buffer_ref(ref->slot, ref->offset,
                                             ref->length);
  }
  return kiln_hal_make_buffer_ref(p->buffers[ref->buffer], ref->offset,
                                  ref->length);
}

static kiln_status_t kiln_replay_player_record_command(
    kiln_hal_replay_player_t* p, kiln_hal_command_buffer_t* cb,
    const kiln_hal_replay_command_t* c) {
  switch (c->type) {
    case KILN_REPLAY_COMMAND_BARRIER:
      return kiln_hal_command_buffer_execution_barrier(cb);
    case KILN_REPLAY_COMMAND_FILL:
      return kiln_hal_command_buffer_fill_buffer(
          cb, kiln_replay_player_ref(p, &c->target), &c->pattern,
          c->pattern_length);
    case KILN_REPLAY_COMMAND_UPDATE:
      return kiln_hal_command_buffer_update_buffer(
          cb, c->update_data, (size_t)c->length,
          kiln_replay_player_ref(p, &c->target));
    case KILN_REPLAY_COMMAND_COPY:
      return kiln_hal_command_buffer_copy_buffer(
          cb, kiln_replay_player_ref(p, &c->source),
          kiln_replay_player_ref(p, &c->target), c->length);
    case KILN_REPLAY_COMMAND_DISPATCH: {
      kiln_hal_buffer_ref_t bindings[KILN_HAL_MAX_DISPATCH_BINDING_COUNT];
      for (uint32_t i = 0; i < c->binding_count; ++i) {
        bindings[i] = kiln_replay_player_ref(p, &c->bindings[i]);
      }
      return kiln_hal_command_buffer_dispatch(
          cb, p->executables[c->executable], c->entry_point, c->workgroup_count,
          c->constant_count, c->constants, c->binding_count, bindings);
    }
  }
  return kiln_make_status(KILN_STATUS_INTERNAL, "bad replay command");
}

static kiln_status_t kiln_replay_player_define_command_buffer(
    kiln_hal_replay_player_t* p, uint32_t id) {
  const kiln_hal_replay_command_buffer_t* def = &p->file->command_buffers[id];
  kiln_hal_command_buffer_t* cb = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_command_buffer_create(
      p->device, def->mode, def->binding_capacity, &cb));
  kiln_status_t status = kiln_ok_status();
  for (uint32_t i = 0; i < def->command_count && !status; ++i) {
    status = kiln_replay_player_record_command(p, cb, &def->commands[i]);
    if (status) status = kiln_status_annotate_f(status, "command %u", i);
  }
  if (!status) status = kiln_hal_command_buffer_finalize(cb);
  if (status) {
    kiln_hal_command_buffer_release(cb);
    return status;
  }
  p->command_buffers[id] = cb;
  return kiln_ok_status();
}

static kiln_status_t kiln_replay_player_execute(
    kiln_hal_replay_player_t* p, const kiln_hal_replay_op_t* op) {
  kiln_hal_command_buffer_t* cbs[16];
  kiln_hal_buffer_binding_table_t tables[16];
  if (op->execution_count > 16) {
    return kiln_make_status(KILN_STATUS_UNIMPLEMENTED,
                            "replay EXECUTE of %u command buffers (at most 16)",
                            op->execution_count);
  }
  size_t total = 0;
  for (uint32_t i = 0; i < op->execution_count; ++i) {
    total += op->executions[i].binding_count;
  }
  kiln_hal_buffer_binding_t* bindings = NULL;
  KILN_RETURN_IF_ERROR(kiln_allocator_calloc(
      p->allocator, (total + 1) * sizeof(*bindings), (void**)&bindings));
  size_t next = 0;
  for (uint32_t i = 0; i < op->execution_count; ++i) {
    const kiln_hal_replay_execution_t* e = &op->executions[i];
    cbs[i] = p->command_buffers[e->command_buffer];
    tables[i].count = e->binding_count;
    tables[i].bindings = bindings + next;
    for (uint32_t j = 0; j < e->binding_count; ++j, ++next) {
      const kiln_hal_replay_binding_t* b = &e->bindings[j];
      bindings[next].buffer =
          b->buffer == KILN_REPLAY_NO_BUFFER ? NULL : p->buffers[b->buffer];
      bindings[next].offset = b->offset;
      bindings[next].length = b->length;
    }
  }
  kiln_hal_fence_t* wait = NULL;
  kiln_hal_fence_t* signal = NULL;
  kiln_status_t status = kiln_replay_player_fences(p, &wait, &signal);
  if (!status) {
    status = kiln_hal_device_queue_execute(p->device, wait, signal,
                                           op->execution_count, cbs, tables);
  }
  kiln_hal_fence_release(wait);
  kiln_hal_fence_release(signal);
  // The binding tables are copied by the queue; the buffers stay alive
  // until their RELEASE is processed after a wait.
  kiln_allocator_free(p->allocator, bindings);
  return status;
}

static kiln_status_t kiln_replay_player_op(kiln_hal_replay_player_t* p,
                                           const kiln_hal_replay_op_t* op,
                                           bool* in_results) {
  bool was_result = *in_results;
  *in_results = false;
  switch (op->type) {
    case KILN_REPLAY_RECORD_BUFFER:
      return kiln_replay_player_define_buffer(p, op->id);
    case KILN_REPLAY_RECORD_COMMAND_BUFFER:
      return kiln_replay_player_define_command_buffer(p, op->id);
    case KILN_REPLAY_RECORD_EXECUTE:
      return kiln_replay_player_execute(p, op);
    case KILN_REPLAY_RECORD_ALLOCA: {
      const kiln_hal_replay_buffer_t* b = &p->file->buffers[op->id];
      kiln_hal_fence_t* wait = NULL;
      kiln_hal_fence_t* signal = NULL;
      KILN_RETURN_IF_ERROR(kiln_replay_player_fences(p, &wait, &signal));
      kiln_status_t status = kiln_hal_device_queue_alloca(
          p->device, wait, signal, &b->params, b->length, &p->buffers[op->id]);
      kiln_hal_fence_release(wait);
      kiln_hal_fence_release(signal);
      return status;
    }
    case KILN_REPLAY_RECORD_DEALLOCA: {
      kiln_hal_fence_t* wait = NULL;
      kiln_hal_fence_t* signal = NULL;
      KILN_RETURN_IF_ERROR(kiln_replay_player_fences(p, &wait, &signal));
      kiln_status_t status = kiln_hal_device_queue_dealloca(
          p->device, wait, signal, p->buffers[op->id]);
      kiln_hal_fence_release(wait);
      kiln_hal_fence_release(signal);
      return status;
    }
    case KILN_REPLAY_RECORD_RESULT: {
      if (!was_result) kiln_replay_player_clear_results(p);
      *in_results = true;
      kiln_hal_buffer_view_t* view = NULL;
      KILN_RETURN_IF_ERROR(kiln_hal_buffer_view_create_at(
          p->buffers[op->id], op->offset, op->length, op->rank, op->dims,
          op->element_type, op->encoding, p->allocator, &view));
      p->results[p->result_count++] = view;
      return kiln_ok_status();
    }
    case KILN_REPLAY_RECORD_RELEASE: {
      void* object = NULL;
      if (op->release_kind == KILN_REPLAY_RELEASE_BUFFER) {
        object = p->buffers[op->id];
        p->buffers[op->id] = NULL;
      } else {
        object = p->command_buffers[op->id];
        p->command_buffers[op->id] = NULL;
      }
      if (object) p->pending[p->pending_count++] = object;
      if (p->pending_count >= KILN_REPLAY_MAX_PENDING_RELEASES) {
        return kiln_replay_player_wait(p);
      }
      return kiln_ok_status();
    }
    default:
      return kiln_ok_status();  // scopes are handled by the caller
  }
}

kiln_status_t kiln_hal_replay_player_run(
    kiln_hal_replay_player_t* p, const char* scope_name,
    kiln_hal_replay_run_stats_t* out_stats) {
  kiln_hal_replay_run_stats_t stats = {0, 0};
  const kiln_hal_replay_file_t* file = p->file;
  KILN_RETURN_IF_ERROR(
      kiln_hal_semaphore_create(0, p->allocator, &p->timeline));
  p->timeline_value = 0;
  kiln_status_t status = kiln_ok_status();
  bool timing = false;
  bool in_results = false;
  int64_t scope_start = 0;
  for (size_t i = 0; i < file->op_count && !status; ++i) {
    const kiln_hal_replay_op_t* op = &file->ops[i];
    if (op->type == KILN_REPLAY_RECORD_SCOPE_BEGIN) {
      timing =
          scope_name && kiln_string_view_equal_cstr(op->scope_name, scope_name);
      if (timing) {
        status = kiln_replay_player_wait(p);
        scope_start = kiln_hal_now_ns();
      }
      in_results = false;
      continue;
    }
    if (op->type == KILN_REPLAY_RECORD_SCOPE_END) {
      if (timing) {
        status = kiln_replay_player_wait(p);
        stats.scope_ns += kiln_hal_now_ns() - scope_start;
        stats.scope_count++;
        timing = false;
      }
      in_results = false;
      continue;
    }
    bool definition = op->type == KILN_REPLAY_RECORD_BUFFER ||
                      op->type == KILN_REPLAY_RECORD_COMMAND_BUFFER;
    int64_t paused = timing && definition ? kiln_hal_now_ns() : 0;
    status = kiln_replay_player_op(p, op, &in_results);
    if (paused) scope_start += kiln_hal_now_ns() - paused;
    if (status) {
      status = kiln_status_annotate_f(
          status, "replaying record %s at offset %" PRIu64,
          kiln_hal_replay_record_type_name(op->type), op->file_offset);
    }
  }
  kiln_status_t wait_status = kiln_replay_player_wait(p);
  if (!status) {
    status = wait_status;
  } else {
    kiln_status_free(wait_status);
  }
  // Objects still alive at the end (no RELEASE recorded) go now.
  for (size_t i = 0; i < file->buffer_count; ++i) {
    kiln_hal_buffer_release(p->buffers[i]);
    p->buffers[i] = NULL;
  }
  for (size_t i = 0; i < file->command_buffer_count; ++i) {
    kiln_hal_command_buffer_release(p->command_buffers[i]);
    p->command_buffers[i] = NULL;
  }
  kiln_hal_semaphore_release(p->timeline);
  p->timeline = NULL;
  if (out_stats) *out_stats = stats;
  return status;
}

size_t kiln_hal_replay_player_result_count(
    const kiln_hal_replay_player_t* player) {
  return player->result_count;
}

kiln_status_t kiln_hal_replay_player_result(kiln_hal_replay_player_t* player,
                                            size_t index,
                                            kiln_hal_buffer_view_t** out_view) {
  *out_view = NULL;
  if (index >= player->result_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "replay result %zu of %zu", index,
                            player->result_count);
  }
  kiln_hal_buffer_view_retain(player->results[index]);
  *out_view = player->results[index];
  return kiln_ok_status();
}
