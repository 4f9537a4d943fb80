// kiln_hal_replay_file_fprint: the text form kiln-dump-replay prints.
#include <inttypes.h>
#include <string.h>

#include "runtime/base/sha256.h"
#include "runtime/hal/replay/replay_file.h"

static const char* kiln_replay_contents_name(kiln_replay_contents_t contents) {
  switch (contents) {
    case KILN_REPLAY_CONTENTS_UNDEFINED:
      return "undefined";
    case KILN_REPLAY_CONTENTS_ZERO:
      return "zero";
    case KILN_REPLAY_CONTENTS_BLOB:
      return "blob";
    case KILN_REPLAY_CONTENTS_FILE:
      return "file";
    case KILN_REPLAY_CONTENTS_RANGES:
      return "ranges";
  }
  return "?";
}

static void kiln_replay_fprint_ref(FILE* stream,
                                   const kiln_hal_replay_ref_t* ref) {
  if (ref->buffer == KILN_REPLAY_NO_BUFFER) {
    fprintf(stream, "slot %u", ref->slot);
  } else {
    fprintf(stream, "buffer %u", ref->buffer);
  }
  if (ref->length == UINT64_MAX) {
    fprintf(stream, "[%" PRIu64 ", end)", ref->offset);
  } else {
    fprintf(stream, "[%" PRIu64 ", +%" PRIu64 ")", ref->offset, ref->length);
  }
}

static void kiln_replay_fprint_command(FILE* stream,
                                       const kiln_hal_replay_file_t* file,
                                       uint32_t index,
                                       const kiln_hal_replay_command_t* c) {
  fprintf(stream, "    [%u] ", index);
  switch (c->type) {
    case KILN_REPLAY_COMMAND_BARRIER:
      fprintf(stream, "barrier\n");
      return;
    case KILN_REPLAY_COMMAND_FILL:
      fprintf(stream, "fill ");
      kiln_replay_fprint_ref(stream, &c->target);
      fprintf(stream, " pattern 0x%0*x\n", (int)c->pattern_length * 2,
              c->pattern);
      return;
    case KILN_REPLAY_COMMAND_UPDATE:
      fprintf(stream, "update ");
      kiln_replay_fprint_ref(stream, &c->target);
      fprintf(stream, " with %" PRIu64 " bytes\n", c->length);
      return;
    case KILN_REPLAY_COMMAND_COPY:
      fprintf(stream, "copy ");
      kiln_replay_fprint_ref(stream, &c->source);
      fprintf(stream, " -> ");
      kiln_replay_fprint_ref(stream, &c->target);
      fprintf(stream, " %" PRIu64 " bytes\n", c->length);
      return;
    case KILN_REPLAY_COMMAND_DISPATCH: {
      const kiln_hal_replay_executable_t* exe =
          &file->executables[c->executable];
      fprintf(stream, "dispatch executable %u", c->executable);
      if (c->entry_point < exe->entry_point_count) {
        fprintf(stream, " '%.*s'",
                KILN_SV_ARG(exe->entry_points[c->entry_point].name));
      } else {
        fprintf(stream, " entry %u", c->entry_point);
      }
      fprintf(stream, " workgroups %ux%ux%u constants [", c->workgroup_count[0],
              c->workgroup_count[1], c->workgroup_count[2]);
      for (uint32_t i = 0; i < c->constant_count; ++i) {
        fprintf(stream, "%s%u", i ? " " : "", c->constants[i]);
      }
      fprintf(stream, "] bindings [");
      for (uint32_t i = 0; i < c->binding_count; ++i) {
        if (i) fprintf(stream, ", ");
        kiln_replay_fprint_ref(stream, &c->bindings[i]);
      }
      fprintf(stream, "]\n");
      return;
    }
  }
  fprintf(stream, "?\n");
}

static void kiln_replay_fprint_buffer(FILE* stream,
                                      const kiln_hal_replay_file_t* file,
                                      uint32_t id) {
  const kiln_hal_replay_buffer_t* b = &file->buffers[id];
  fprintf(stream, "BUFFER %u: %" PRIu64 " bytes, %s, contents %s", id,
          b->length,
          b->origin == KILN_REPLAY_BUFFER_ORIGIN_ALLOCA ? "alloca" : "host",
          kiln_replay_contents_name(b->contents));
  switch (b->contents) {
    case KILN_REPLAY_CONTENTS_BLOB:
      fprintf(stream, " (blob %u)", b->blob);
      break;
    case KILN_REPLAY_CONTENTS_FILE: {
      fprintf(stream, " (file %u at offset %" PRIu64 ", validation %s", b->file,
              b->file_offset,
              b->validation == KILN_REPLAY_VALIDATION_DIGEST ? "digest"
                                                             : "identity");
      if (b->validation == KILN_REPLAY_VALIDATION_DIGEST) {
        kiln_sha256_digest_t digest;
        memcpy(digest.bytes, b->digest, 32);
        char hex[KILN_SHA256_HEX_SIZE + 1];
        kiln_sha256_digest_to_hex(&digest, hex);
        fprintf(stream, " sha256 %s", hex);
      }
      fprintf(stream, ")");
      break;
    }
    case KILN_REPLAY_CONTENTS_RANGES:
      fprintf(stream, " (");
      for (uint32_t i = 0; i < b->range_count; ++i) {
        fprintf(stream, "%s[%" PRIu64 ", +%" PRIu64 ") from blob %u",
                i ? ", " : "", b->ranges[i].offset, b->ranges[i].length,
                b->ranges[i].blob);
      }
      fprintf(stream, ")");
      break;
    default:
      break;
  }
  fprintf(stream, "\n");
}

void kiln_hal_replay_file_fprint(FILE* stream,
                                 const kiln_hal_replay_file_t* file) {
  fprintf(stream,
          "kiln replay, format %u.%u, %" PRIu64
          " bytes, %u records, recorded on '%s'\n",
          file->major_version, file->minor_version, file->length,
          file->record_count, file->device_id);
  for (size_t i = 0; i < file->blob_count; ++i) {
    fprintf(stream, "BLOB %zu: %" PRIu64 " bytes\n", i, file->blobs[i].length);
  }
  for (size_t i = 0; i < file->file_count; ++i) {
    fprintf(stream, "FILE %zu: '%.*s' %" PRIu64 " bytes mtime %" PRId64 " ns\n",
            i, KILN_SV_ARG(file->files[i].path), file->files[i].size,
            file->files[i].mtime_ns);
  }
  for (size_t i = 0; i < file->executable_count; ++i) {
    const kiln_hal_replay_executable_t* exe = &file->executables[i];
    fprintf(stream,
            "EXECUTABLE %zu: format '%.*s', blob %u (%" PRIu64
            " bytes), %zu entry points, %zu constants\n",
            i, KILN_SV_ARG(exe->format), exe->blob,
            file->blobs[exe->blob].length, exe->entry_point_count,
            exe->constant_count);
    for (size_t j = 0; j < exe->entry_point_count; ++j) {
      const kiln_hal_executable_entry_point_info_t* e = &exe->entry_points[j];
      fprintf(stream,
              "    [%zu] '%.*s' workgroup %ux%ux%u local %u bytes%s%.*s\n", j,
              KILN_SV_ARG(e->name), e->workgroup_size[0], e->workgroup_size[1],
              e->workgroup_size[2], e->local_memory_size,
              e->source_location.size ? " at " : "",
              KILN_SV_ARG(e->source_location));
    }
  }
  size_t executes = 0, results = 0;
  for (size_t i = 0; i < file->op_count; ++i) {
    const kiln_hal_replay_op_t* op = &file->ops[i];
    switch (op->type) {
      case KILN_REPLAY_RECORD_BUFFER:
        kiln_replay_fprint_buffer(stream, file, op->id);
        break;
      case KILN_REPLAY_RECORD_COMMAND_BUFFER: {
        const kiln_hal_replay_command_buffer_t* cb =
            &file->command_buffers[op->id];
        fprintf(stream,
                "COMMAND_BUFFER %u: %s, %u binding slots, %u commands\n",
                op->id,
                (cb->mode & KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT) ? "one-shot"
                                                                   : "reusable",
                cb->binding_capacity, cb->command_count);
        for (uint32_t j = 0; j < cb->command_count; ++j) {
          kiln_replay_fprint_command(stream, file, j, &cb->commands[j]);
        }
        break;
      }
      case KILN_REPLAY_RECORD_EXECUTE:
        executes++;
        fprintf(stream, "EXECUTE");
        for (uint32_t j = 0; j < op->execution_count; ++j) {
          const kiln_hal_replay_execution_t* e = &op->executions[j];
          fprintf(stream, "%s command buffer %u bindings [", j ? ";" : "",
                  e->command_buffer);
          for (uint32_t k = 0; k < e->binding_count; ++k) {
            const kiln_hal_replay_binding_t* b = &e->bindings[k];
            if (k) fprintf(stream, ", ");
            if (b->buffer == KILN_REPLAY_NO_BUFFER) {
              fprintf(stream, "none");
            } else {
              fprintf(stream, "buffer %u[%" PRIu64 ", +%" PRIu64 ")", b->buffer,
                      b->offset, b->length);
            }
          }
          fprintf(stream, "]");
        }
        fprintf(stream, "\n");
        break;
      case KILN_REPLAY_RECORD_ALLOCA:
        fprintf(stream, "ALLOCA buffer %u (%" PRIu64 " bytes)\n", op->id,
                file->buffers[op->id].length);
        break;
      case KILN_REPLAY_RECORD_DEALLOCA:
        fprintf(stream, "DEALLOCA buffer %u\n", op->id);
        break;
      case KILN_REPLAY_RECORD_SCOPE_BEGIN:
        fprintf(stream, "SCOPE_BEGIN '%.*s'\n", KILN_SV_ARG(op->scope_name));
        break;
      case KILN_REPLAY_RECORD_SCOPE_END:
        fprintf(stream, "SCOPE_END\n");
        break;
      case KILN_REPLAY_RECORD_RESULT: {
        results++;
        char type[32];
        kiln_hal_element_type_format(op->element_type, type, sizeof(type));
        fprintf(stream, "RESULT buffer %u[%" PRIu64 ", +%" PRIu64 ") ", op->id,
                op->offset, op->length);
        for (uint32_t j = 0; j < op->rank; ++j) {
          fprintf(stream, "%" PRId64 "x", op->dims[j]);
        }
        fprintf(stream, "%s\n", type);
        break;
      }
      case KILN_REPLAY_RECORD_RELEASE:
        fprintf(stream, "RELEASE %s %u\n",
                op->release_kind == KILN_REPLAY_RELEASE_BUFFER
                    ? "buffer"
                    : "command buffer",
                op->id);
        break;
      default:
        break;
    }
  }
  fprintf(stream,
          "summary: %zu blobs, %zu files, %zu buffers, %zu executables, %zu "
          "command buffers, %zu executes, %zu scopes, %zu results\n",
          file->blob_count, file->file_count, file->buffer_count,
          file->executable_count, file->command_buffer_count, executes,
          file->scope_count, results);
}
