// Bytecode module: loading and validation of .kmod images, the module vtable
// and the rodata/executable accessors.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/crc32.h"
#include "runtime/base/sha256.h"
#include "runtime/vm/bytecode_module_impl.h"
#include "runtime/vm/executable_ref.h"

static const kiln_vm_module_vtable_t kiln_vm_bytecode_module_vtable;

#define KILN_BAD_MODULE(...)                     \
  kiln_make_status(KILN_STATUS_INVALID_ARGUMENT, \
                   "invalid "                    \
                   "module: " __VA_ARGS__)

//===----------------------------------------------------------------------===//
// Destruction
//===----------------------------------------------------------------------===//

static void kiln_vm_bytecode_module_destroy(kiln_vm_module_t* base) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  kiln_allocator_t a = base->allocator;
  kiln_allocator_free(a, m->sections);
  kiln_allocator_free(a, m->strings);
  kiln_allocator_free(a, m->imports);
  kiln_allocator_free(a, m->exports);
  kiln_allocator_free(a, m->attrs);
  kiln_allocator_free(a, m->functions);
  kiln_allocator_free(a, m->rodata);
  kiln_allocator_free(a, (void*)m->rodata_checked);
  kiln_ref_release(m->parameter_owner);
  kiln_allocator_free(a, m->executables);
  kiln_allocator_free(a, m->entry_points);
  kiln_allocator_free(a, m->globals);
  if (m->mapping) munmap(m->mapping, m->mapping_length);
  if (m->owned_copy) kiln_allocator_free_aligned(a, m->owned_copy, 4096);
  kiln_allocator_free(a, m);
}

//===----------------------------------------------------------------------===//
// Parsing helpers
//===----------------------------------------------------------------------===//

typedef struct kiln_vm_section_view_t {
  const uint8_t* data;
  uint64_t offset;  // in the file
  uint64_t length;
  bool present;
} kiln_vm_section_view_t;

static kiln_status_t kiln_vm_alloc_array(kiln_allocator_t a, size_t count,
                                         size_t elem, void** out) {
  size_t bytes = 0;
  if (kiln_mul_overflow_size(count, elem, &bytes)) {
    return KILN_BAD_MODULE("table too large");
  }
  return kiln_allocator_calloc(a, bytes ? bytes : 1, out);
}

// Checks that a table of |count| entries of |entry_size| bytes starting at
// |offset| fits in the section.
static kiln_status_t kiln_vm_check_table(const kiln_vm_section_view_t* s,
                                         const char* what, uint64_t offset,
                                         uint64_t count, uint64_t entry_size) {
  if (offset > s->length || count > (s->length - offset) / entry_size) {
    return KILN_BAD_MODULE("%s table (%" PRIu64
                           " entries) exceeds its section (%" PRIu64 " bytes)",
                           what, count, s->length);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_get_string(const kiln_vm_bytecode_module_t* m,
                                        uint32_t index, const char* what,
                                        kiln_string_view_t* out) {
  if (index >= m->string_count) {
    return KILN_BAD_MODULE("%s string index %u out of range (%u strings)", what,
                           index, m->string_count);
  }
  *out = m->strings[index];
  return kiln_ok_status();
}

static bool kiln_is_pow2(uint64_t x) {
  return x && !(x & (x - 1));
}

//===----------------------------------------------------------------------===//
// Sections
//===----------------------------------------------------------------------===//

static kiln_status_t kiln_vm_parse_strings(kiln_vm_bytecode_module_t* m,
                                           const kiln_vm_section_view_t* s) {
  if (!s->present) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "strings", 0, 1, 4));
  uint32_t count = kiln_vm_rd32(s->data);
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "strings", 4, count, 8));
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, count,
                                           sizeof(kiln_string_view_t),
                                           (void**)&m->strings));
  m->string_count = count;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t off = kiln_vm_rd32(s->data + 4 + 8 * (uint64_t)i);
    uint32_t len = kiln_vm_rd32(s->data + 8 + 8 * (uint64_t)i);
    if ((uint64_t)off + len > s->length) {
      return KILN_BAD_MODULE("string %u [%u, +%u) exceeds the strings section",
                             i, off, len);
    }
    m->strings[i] = kiln_make_string_view((const char*)s->data + off, len);
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_parse_imports(kiln_vm_bytecode_module_t* m,
                                           const kiln_vm_section_view_t* s) {
  if (!s->present) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "imports", 0, 1, 4));
  uint32_t count = kiln_vm_rd32(s->data);
  KILN_RETURN_IF_ERROR(
      kiln_vm_check_table(s, "imports", 4, count, KILN_VM_IMPORT_ENTRY_SIZE));
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, count,
                                           sizeof(kiln_vm_bc_import_t),
                                           (void**)&m->imports));
  m->import_count = count;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = s->data + 4 + (uint64_t)i * KILN_VM_IMPORT_ENTRY_SIZE;
    kiln_vm_bc_import_t* imp = &m->imports[i];
    KILN_RETURN_IF_ERROR(
        kiln_vm_get_string(m, kiln_vm_rd32(e), "import name", &imp->name));
    KILN_RETURN_IF_ERROR(kiln_vm_get_string(
        m, kiln_vm_rd32(e + 4), "import signature", &imp->signature));
    if (kiln_string_view_find_char(imp->name, '.', 0) == SIZE_MAX) {
      return KILN_BAD_MODULE("import %u name '%.*s' is not 'module.function'",
                             i, KILN_SV_ARG(imp->name));
    }
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_vm_signature_parse(imp->signature, &imp->sig),
        "invalid module: import '%.*s'", KILN_SV_ARG(imp->name));
    if (imp->sig.args.size > 255 || imp->sig.results.size > 255) {
      return KILN_BAD_MODULE("import '%.*s' has too many values",
                             KILN_SV_ARG(imp->name));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_parse_functions(
    kiln_vm_bytecode_module_t* m, const kiln_vm_section_view_t* s,
    const kiln_vm_section_view_t* code) {
  if (!s->present) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "functions", 0, 1, 4));
  uint32_t count = kiln_vm_rd32(s->data);
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "functions", 4, count,
                                           KILN_VM_FUNCTION_ENTRY_SIZE));
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, count,
                                           sizeof(kiln_vm_bc_function_t),
                                           (void**)&m->functions));
  m->function_count = count;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = s->data + 4 + (uint64_t)i * KILN_VM_FUNCTION_ENTRY_SIZE;
    kiln_vm_bc_function_t* f = &m->functions[i];
    KILN_RETURN_IF_ERROR(
        kiln_vm_get_string(m, kiln_vm_rd32(e), "function name", &f->name));
    KILN_RETURN_IF_ERROR(kiln_vm_get_string(
        m, kiln_vm_rd32(e + 4), "function signature", &f->signature));
    KILN_RETURN_AND_ANNOTATE_IF_ERROR(
        kiln_vm_signature_parse(f->signature, &f->sig),
        "invalid module: function '%.*s'", KILN_SV_ARG(f->name));
    if (f->sig.variadic) {
      return KILN_BAD_MODULE("function '%.*s' has a variadic signature",
                             KILN_SV_ARG(f->name));
    }
    if (f->sig.args.size > 255 || f->sig.results.size > 255) {
      return KILN_BAD_MODULE("function '%.*s' has too many values",
                             KILN_SV_ARG(f->name));
    }
    uint32_t arg_per_bank[KILN_VM_BANK_COUNT] = {0};
    for (size_t j = 0; j < f->sig.args.size; ++j) {
      ++arg_per_bank[kiln_vm_bank_of_type_char(f->sig.args.data[j])];
    }
    uint64_t offset = 0;
    static const int order[KILN_VM_BANK_COUNT] = {
        KILN_VM_BANK_I64, KILN_VM_BANK_F64, KILN_VM_BANK_REF, KILN_VM_BANK_I32,
        KILN_VM_BANK_F32};
    for (int b = 0; b < KILN_VM_BANK_COUNT; ++b) {
      f->regs[b] = kiln_vm_rd16(e + 8 + 2 * b);
      if (arg_per_bank[b] > f->regs[b]) {
        return KILN_BAD_MODULE(
            "function '%.*s' has %u %c registers but %u arguments in them",
            KILN_SV_ARG(f->name), f->regs[b], kiln_vm_bank_prefix(b),
            arg_per_bank[b]);
      }
    }
    for (int k = 0; k < KILN_VM_BANK_COUNT; ++k) {
      int b = order[k];
      f->bank_offset[b] = (uint32_t)offset;
      uint64_t elem = b == KILN_VM_BANK_I32 || b == KILN_VM_BANK_F32 ? 4 : 8;
      offset += elem * f->regs[b];
    }
    f->frame_size = (uint32_t)kiln_align_up(offset, 8);
    f->code_offset = kiln_vm_rd32(e + 20);
    f->code_length = kiln_vm_rd32(e + 24);
    if (!code->present ||
        (uint64_t)f->code_offset + f->code_length > code->length) {
      return KILN_BAD_MODULE(
          "function '%.*s' code [%u, +%u) exceeds the "
          "bytecode section",
          KILN_SV_ARG(f->name), f->code_offset, f->code_length);
    }
    if (f->code_length == 0) {
      return KILN_BAD_MODULE("function '%.*s' has no code",
                             KILN_SV_ARG(f->name));
    }
    f->code = code->data + f->code_offset;
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_parse_exports(kiln_vm_bytecode_module_t* m,
                                           const kiln_vm_section_view_t* s) {
  if (!s->present) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "exports", 0, 2, 4));
  uint32_t count = kiln_vm_rd32(s->data);
  uint32_t attr_count = kiln_vm_rd32(s->data + 4);
  KILN_RETURN_IF_ERROR(
      kiln_vm_check_table(s, "exports", 8, count, KILN_VM_EXPORT_ENTRY_SIZE));
  uint64_t attrs_offset = 8 + (uint64_t)count * KILN_VM_EXPORT_ENTRY_SIZE;
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "export attributes", attrs_offset,
                                           attr_count,
                                           KILN_VM_ATTR_ENTRY_SIZE));
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, count,
                                           sizeof(kiln_vm_bc_export_t),
                                           (void**)&m->exports));
  m->export_count = count;
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, attr_count,
                                           sizeof(kiln_vm_bc_attr_t),
                                           (void**)&m->attrs));
  m->attr_count = attr_count;
  for (uint32_t i = 0; i < attr_count; ++i) {
    const uint8_t* e = s->data + attrs_offset + (uint64_t)i * 8;
    KILN_RETURN_IF_ERROR(kiln_vm_get_string(m, kiln_vm_rd32(e), "attribute key",
                                            &m->attrs[i].key));
    KILN_RETURN_IF_ERROR(kiln_vm_get_string(
        m, kiln_vm_rd32(e + 4), "attribute value", &m->attrs[i].value));
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = s->data + 8 + (uint64_t)i * KILN_VM_EXPORT_ENTRY_SIZE;
    kiln_vm_bc_export_t* x = &m->exports[i];
    KILN_RETURN_IF_ERROR(
        kiln_vm_get_string(m, kiln_vm_rd32(e), "export name", &x->name));
    x->function = kiln_vm_rd32(e + 4);
    x->first_attr = kiln_vm_rd32(e + 8);
    x->attr_count = kiln_vm_rd32(e + 12);
    if (x->function >= m->function_count) {
      return KILN_BAD_MODULE(
          "export '%.*s' function %u out of range (%u "
          "functions)",
          KILN_SV_ARG(x->name), x->function, m->function_count);
    }
    if ((uint64_t)x->first_attr + x->attr_count > attr_count) {
      return KILN_BAD_MODULE("export '%.*s' attributes out of range",
                             KILN_SV_ARG(x->name));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_parse_rodata(kiln_vm_bytecode_module_t* m,
                                          const kiln_vm_section_view_t* s) {
  if (!s->present) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "rodata", 0, 2, 4));
  uint32_t count = kiln_vm_rd32(s->data);
  KILN_RETURN_IF_ERROR(
      kiln_vm_check_table(s, "rodata", 8, count, KILN_VM_RODATA_ENTRY_SIZE));
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, count,
                                           sizeof(kiln_vm_rodata_info_t),
                                           (void**)&m->rodata));
  m->rodata_count = count;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = s->data + 8 + (uint64_t)i * KILN_VM_RODATA_ENTRY_SIZE;
    kiln_vm_rodata_info_t* r = &m->rodata[i];
    KILN_RETURN_IF_ERROR(
        kiln_vm_get_string(m, kiln_vm_rd32(e), "rodata name", &r->name));
    uint32_t alignment_word = kiln_vm_rd32(e + 4);
    bool splat = (alignment_word & KILN_VM_RODATA_FLAG_SPLAT) != 0;
    bool parameter = (alignment_word & KILN_VM_RODATA_FLAG_PARAMETER) != 0;
    r->alignment = alignment_word &
                   ~(KILN_VM_RODATA_FLAG_SPLAT | KILN_VM_RODATA_FLAG_PARAMETER);
    if (splat && parameter) {
      return KILN_BAD_MODULE("rodata '%.*s' is both a splat and a parameter",
                             KILN_SV_ARG(r->name));
    }
    r->file_offset = kiln_vm_rd64(e + 8);
    r->length = kiln_vm_rd64(e + 16);
    if (!kiln_is_pow2(r->alignment) || r->alignment > KILN_VM_MAX_ALIGNMENT ||
        r->alignment < KILN_VM_DATA_ALIGNMENT) {
      return KILN_BAD_MODULE(
          "rodata '%.*s' alignment %u is not a power of two "
          "in [64, 65536]",
          KILN_SV_ARG(r->name), r->alignment);
    }
    if (r->file_offset % r->alignment) {
      return KILN_BAD_MODULE(
          "rodata '%.*s' offset %" PRIu64 " is not %u-byte aligned",
          KILN_SV_ARG(r->name), r->file_offset, r->alignment);
    }
    if (r->file_offset < s->offset || r->length > s->length ||
        r->file_offset - s->offset > s->length - r->length) {
      return KILN_BAD_MODULE("rodata '%.*s' [%" PRIu64 ", +%" PRIu64
                             ") is outside the rodata section",
                             KILN_SV_ARG(r->name), r->file_offset, r->length);
    }
    r->data = m->image + r->file_offset;
    if (parameter) {
      // {u32 scope, u32 key, u64 length}: bytes found when bound.
      if (r->length != KILN_VM_RODATA_PARAMETER_DATA_SIZE) {
        return KILN_BAD_MODULE("parameter rodata '%.*s' has %" PRIu64
                               " data bytes; needs %d",
                               KILN_SV_ARG(r->name), r->length,
                               KILN_VM_RODATA_PARAMETER_DATA_SIZE);
      }
      KILN_RETURN_IF_ERROR(kiln_vm_get_string(
          m, kiln_vm_rd32(r->data), "parameter scope", &r->parameter_scope));
      KILN_RETURN_IF_ERROR(kiln_vm_get_string(
          m, kiln_vm_rd32(r->data + 4), "parameter key", &r->parameter_key));
      r->length = kiln_vm_rd64(r->data + 8);
      if (r->length > SIZE_MAX / 2) {
        return KILN_BAD_MODULE("parameter rodata '%.*s' is too large",
                               KILN_SV_ARG(r->name));
      }
      r->data = NULL;
      r->is_parameter = true;
      ++m->parameter_count;
      continue;
    }
    if (splat) {
      // {u64 length, pattern}: the entry stands for the expanded length.
      uint64_t pattern_length = r->length - 8;
      if (r->length < 9 || pattern_length > KILN_VM_RODATA_MAX_SPLAT_PATTERN) {
        return KILN_BAD_MODULE(
            "splat rodata '%.*s' has %" PRIu64 " data bytes; needs 8 + 1..%d",
            KILN_SV_ARG(r->name), r->length, KILN_VM_RODATA_MAX_SPLAT_PATTERN);
      }
      uint64_t length = kiln_vm_rd64(r->data);
      if (length % pattern_length || length > SIZE_MAX / 2) {
        return KILN_BAD_MODULE("splat rodata '%.*s' of %" PRIu64
                               " bytes is not a multiple of its %" PRIu64
                               " byte pattern (or too large)",
                               KILN_SV_ARG(r->name), length, pattern_length);
      }
      r->splat_pattern = r->data + 8;
      r->splat_pattern_length = (uint32_t)pattern_length;
      r->data = NULL;
      r->length = length;
    }
  }
  return kiln_ok_status();
}

// A read-only buffer holding splat entry |r| expanded, from |allocator|
// (which bounds it: a module's splats are what it may allocate).
static kiln_status_t kiln_vm_rodata_expand_splat(
    const kiln_vm_rodata_info_t* r, kiln_allocator_t allocator,
    kiln_vm_buffer_t** out_buffer) {
  KILN_RETURN_IF_ERROR(kiln_vm_buffer_allocate((size_t)r->length, r->alignment,
                                               allocator, out_buffer));
  uint8_t* data = (*out_buffer)->data;
  size_t n = r->splat_pattern_length;
  if (r->length) memcpy(data, r->splat_pattern, n);
  // Doubling copies: log(length) memcpy calls.
  for (size_t done = n; done < r->length;) {
    size_t chunk = done < r->length - done ? done : (size_t)r->length - done;
    memcpy(data + done, data, chunk);
    done += chunk;
  }
  (*out_buffer)->is_mutable = false;
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_parse_executables(
    kiln_vm_bytecode_module_t* m, const kiln_vm_section_view_t* s) {
  if (!s->present) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "executables", 0, 2, 4));
  uint32_t count = kiln_vm_rd32(s->data);
  uint32_t entry_count = kiln_vm_rd32(s->data + 4);
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "executables", 8, count,
                                           KILN_VM_EXECUTABLE_ENTRY_SIZE));
  uint64_t entries_offset = 8 + (uint64_t)count * KILN_VM_EXECUTABLE_ENTRY_SIZE;
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "entry points", entries_offset,
                                           entry_count,
                                           KILN_VM_ENTRY_POINT_ENTRY_SIZE));
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, count,
                                           sizeof(kiln_vm_bc_executable_t),
                                           (void**)&m->executables));
  m->executable_count = count;
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(
      m->base.allocator, entry_count, sizeof(kiln_vm_executable_entry_point_t),
      (void**)&m->entry_points));
  m->entry_point_count = entry_count;
  for (uint32_t i = 0; i < entry_count; ++i) {
    const uint8_t* e =
        s->data + entries_offset + (uint64_t)i * KILN_VM_ENTRY_POINT_ENTRY_SIZE;
    kiln_vm_executable_entry_point_t* ep = &m->entry_points[i];
    KILN_RETURN_IF_ERROR(
        kiln_vm_get_string(m, kiln_vm_rd32(e), "entry point name", &ep->name));
    for (int k = 0; k < 3; ++k) {
      ep->workgroup_size[k] = kiln_vm_rd32(e + 4 + 4 * k);
    }
    ep->local_memory_bytes = kiln_vm_rd32(e + 16);
    KILN_RETURN_IF_ERROR(kiln_vm_get_string(m, kiln_vm_rd32(e + 20),
                                            "entry point source location",
                                            &ep->source_location));
  }
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e =
        s->data + 8 + (uint64_t)i * KILN_VM_EXECUTABLE_ENTRY_SIZE;
    kiln_vm_bc_executable_t* x = &m->executables[i];
    KILN_RETURN_IF_ERROR(kiln_vm_get_string(m, kiln_vm_rd32(e),
                                            "executable name", &x->info.name));
    KILN_RETURN_IF_ERROR(kiln_vm_get_string(
        m, kiln_vm_rd32(e + 4), "executable format", &x->info.format));
    x->first_entry = kiln_vm_rd32(e + 8);
    x->info.entry_point_count = kiln_vm_rd32(e + 12);
    x->data_file_offset = kiln_vm_rd64(e + 16);
    x->info.data_length = kiln_vm_rd64(e + 24);
    uint32_t flags = kiln_vm_rd32(e + 32);
    x->info.has_digest = (flags & KILN_VM_EXECUTABLE_FLAG_HAS_DIGEST) != 0;
    memcpy(x->info.digest, e + 40, 32);
    if ((uint64_t)x->first_entry + x->info.entry_point_count > entry_count) {
      return KILN_BAD_MODULE("executable '%.*s' entry points out of range",
                             KILN_SV_ARG(x->info.name));
    }
    uint64_t off = x->data_file_offset, len = x->info.data_length;
    if (off % KILN_VM_DATA_ALIGNMENT || off < s->offset || len > s->length ||
        off - s->offset > s->length - len) {
      return KILN_BAD_MODULE("executable '%.*s' data [%" PRIu64 ", +%" PRIu64
                             ") is misaligned or outside its section",
                             KILN_SV_ARG(x->info.name), off, len);
    }
    x->info.data = m->image + off;
    if (x->info.has_digest) {
      kiln_sha256_digest_t digest = kiln_sha256(x->info.data, len);
      if (memcmp(digest.bytes, x->info.digest, 32) != 0) {
        return KILN_BAD_MODULE(
            "executable '%.*s' data does not match its "
            "SHA-256 digest",
            KILN_SV_ARG(x->info.name));
      }
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_parse_globals(kiln_vm_bytecode_module_t* m,
                                           const kiln_vm_section_view_t* s) {
  if (!s->present) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_check_table(s, "globals", 0, 1, 4));
  uint32_t count = kiln_vm_rd32(s->data);
  KILN_RETURN_IF_ERROR(
      kiln_vm_check_table(s, "globals", 4, count, KILN_VM_GLOBAL_ENTRY_SIZE));
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, count,
                                           sizeof(kiln_vm_bc_global_t),
                                           (void**)&m->globals));
  m->global_count = count;
  for (uint32_t i = 0; i < count; ++i) {
    const uint8_t* e = s->data + 4 + (uint64_t)i * KILN_VM_GLOBAL_ENTRY_SIZE;
    kiln_vm_bc_global_t* g = &m->globals[i];
    KILN_RETURN_IF_ERROR(
        kiln_vm_get_string(m, kiln_vm_rd32(e), "global name", &g->name));
    g->bank = kiln_vm_rd32(e + 4);
    if (g->bank >= KILN_VM_BANK_COUNT) {
      return KILN_BAD_MODULE(
          "global %u '%.*s' has bad bank %u (0..4: i32, "
          "i64, f32, f64, ref)",
          i, KILN_SV_ARG(g->name), g->bank);
    }
  }
  return kiln_ok_status();
}

//===----------------------------------------------------------------------===//
// Header and section table
//===----------------------------------------------------------------------===//

// True when the module has a RODATA_CHECKSUMS section whose structure CRC
// matches: the load then reads no rodata payload, and sets m->rodata_crcs
// so that each entry is checked before its first use. False (check the
// whole file, as for modules without the section) when the section is
// missing, malformed or does not match: the whole-file CRC then tells a
// damaged file from a damaged checksum section, with the usual error.
// Only reads the section table here; the structural parse validates it.
static bool kiln_vm_structure_crc_matches(kiln_vm_bytecode_module_t* m) {
  const uint8_t* p = m->image;
  uint64_t length = m->image_length;
  uint32_t section_count = kiln_vm_rd32(p + 28);
  uint64_t table = kiln_vm_rd64(p + 32);
  if (table > length ||
      section_count > (length - table) / KILN_VM_SECTION_ENTRY_SIZE) {
    return false;
  }
  uint64_t rodata[2] = {0, 0}, sums[2] = {0, 0};
  for (uint32_t i = 0; i < section_count; ++i) {
    const uint8_t* e = p + table + (uint64_t)i * KILN_VM_SECTION_ENTRY_SIZE;
    uint32_t kind = kiln_vm_rd32(e);
    uint64_t offset = kiln_vm_rd64(e + 8), size = kiln_vm_rd64(e + 16);
    if (offset > length || size > length - offset) return false;
    uint64_t* range = kind == KILN_VM_SECTION_RODATA             ? rodata
                      : kind == KILN_VM_SECTION_RODATA_CHECKSUMS ? sums
                                                                 : NULL;
    if (!range) continue;
    if (range[1]) return false;  // duplicate: the parse reports it
    range[0] = offset;
    range[1] = size;
  }
  if (rodata[1] < 8 || sums[1] < KILN_VM_RODATA_CHECKSUMS_HEADER_SIZE) {
    return false;
  }
  uint32_t count = kiln_vm_rd32(p + sums[0] + 4);
  if (count != kiln_vm_rd32(p + rodata[0]) ||
      (sums[1] - KILN_VM_RODATA_CHECKSUMS_HEADER_SIZE) / 4 < count ||
      (rodata[1] - 8) / KILN_VM_RODATA_ENTRY_SIZE < count) {
    return false;
  }
  uint64_t data_begin =
      rodata[0] + 8 + (uint64_t)count * KILN_VM_RODATA_ENTRY_SIZE;
  if (kiln_vm_structure_crc32(p, length, sums[0], data_begin,
                              rodata[0] + rodata[1]) !=
      kiln_vm_rd32(p + sums[0])) {
    return false;
  }
  m->rodata_crcs = p + sums[0] + KILN_VM_RODATA_CHECKSUMS_HEADER_SIZE;
  return true;
}

// Bytes entry |r| takes in the file: a splat's {length, pattern}, a
// parameter's descriptor, or the data itself.
static uint64_t kiln_vm_rodata_stored_length(const kiln_vm_rodata_info_t* r) {
  if (r->is_parameter) return KILN_VM_RODATA_PARAMETER_DATA_SIZE;
  if (r->splat_pattern) return 8 + (uint64_t)r->splat_pattern_length;
  return r->length;
}

kiln_status_t kiln_vm_bytecode_module_check_rodata(kiln_vm_bytecode_module_t* m,
                                                   uint32_t index) {
  if (!m->rodata_crcs || index >= m->rodata_count ||
      kiln_atomic_load_acquire(&m->rodata_checked[index])) {
    return kiln_ok_status();
  }
  const kiln_vm_rodata_info_t* r = &m->rodata[index];
  uint64_t stored = kiln_vm_rodata_stored_length(r);
  uint32_t want = kiln_vm_rd32(m->rodata_crcs + 4 * (uint64_t)index);
  uint32_t got = kiln_crc32(m->image + r->file_offset, (size_t)stored);
  if (got != want) {
    return kiln_make_status(
        KILN_STATUS_DATA_LOSS,
        "module '%.*s': rodata '%.*s' (%" PRIu64 " bytes at offset %" PRIu64
        ") is corrupted: its CRC32 is %08x, the module says %08x",
        KILN_SV_ARG(m->name), KILN_SV_ARG(r->name), stored, r->file_offset, got,
        want);
  }
  kiln_atomic_store_release(&m->rodata_checked[index], true);
  return kiln_ok_status();
}

// With lazy rodata checks: the per-entry flags, and the splat and parameter
// descriptors checked now (they were parsed at load).
static kiln_status_t kiln_vm_prepare_rodata_checks(
    kiln_vm_bytecode_module_t* m) {
  if (!m->rodata_crcs) return kiln_ok_status();
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, m->rodata_count,
                                           sizeof(kiln_atomic_bool_t),
                                           (void**)&m->rodata_checked));
  for (uint32_t i = 0; i < m->rodata_count; ++i) {
    kiln_atomic_init(&m->rodata_checked[i], false);
  }
  for (uint32_t i = 0; i < m->rodata_count; ++i) {
    if (m->rodata[i].is_parameter || m->rodata[i].splat_pattern) {
      KILN_RETURN_IF_ERROR(kiln_vm_bytecode_module_check_rodata(m, i));
    }
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_parse_module(kiln_vm_bytecode_module_t* m,
                                          kiln_vm_bytecode_load_flags_t flags) {
  const uint8_t* p = m->image;
  size_t length = m->image_length;
  if (length < KILN_VM_MODULE_MAGIC_SIZE ||
      memcmp(p, KILN_VM_MODULE_MAGIC, KILN_VM_MODULE_MAGIC_SIZE) != 0) {
    // IREE's .vmfb is a FlatBuffer whose file identifier "IREE" sits at
    // byte 4: say what it is and what to do.
    if (length >= 8 && memcmp(p + 4, "IREE", 4) == 0) {
      return KILN_BAD_MODULE(
          "this is an IREE module (.vmfb), not a kiln module; compile the "
          "program's source with kiln-compile");
    }
    return KILN_BAD_MODULE("not a kiln module (bad magic)");
  }
  if (length < KILN_VM_HEADER_SIZE) {
    return KILN_BAD_MODULE("truncated header (%zu bytes, need %d)", length,
                           KILN_VM_HEADER_SIZE);
  }
  m->version_major = kiln_vm_rd16(p + 8);
  m->version_minor = kiln_vm_rd16(p + 10);
  if (m->version_major != KILN_VM_MODULE_VERSION_MAJOR) {
    return kiln_make_status(
        KILN_STATUS_UNIMPLEMENTED,
        "module format version %u.%u is not supported by this runtime "
        "(supports %d.x, at most %d.%d)",
        m->version_major, m->version_minor, KILN_VM_MODULE_VERSION_MAJOR,
        KILN_VM_MODULE_VERSION_MAJOR, KILN_VM_MODULE_VERSION_MINOR);
  }
  uint64_t file_length = kiln_vm_rd64(p + 16);
  if (file_length != length) {
    return KILN_BAD_MODULE(
        "file length %zu does not match the header's %" PRIu64 " (truncated?)",
        length, file_length);
  }
  m->crc32 = kiln_vm_rd32(p + KILN_VM_HEADER_CRC_OFFSET);
  if (!(flags & KILN_VM_BYTECODE_LOAD_FLAG_SKIP_CRC) &&
      !kiln_vm_structure_crc_matches(m)) {
    static const uint8_t zeros[4] = {0};
    uint32_t crc = kiln_crc32_update(0, p, KILN_VM_HEADER_CRC_OFFSET);
    crc = kiln_crc32_update(crc, zeros, 4);
    crc = kiln_crc32_update(crc, p + KILN_VM_HEADER_CRC_OFFSET + 4,
                            length - KILN_VM_HEADER_CRC_OFFSET - 4);
    if (crc != m->crc32) {
      return kiln_make_status(KILN_STATUS_DATA_LOSS,
                              "invalid module: CRC32 mismatch (file has "
                              "%08x, contents give %08x): corrupted file",
                              m->crc32, crc);
    }
  }
  uint32_t section_count = kiln_vm_rd32(p + 28);
  uint64_t table = kiln_vm_rd64(p + 32);
  if (table > length ||
      section_count > (length - table) / KILN_VM_SECTION_ENTRY_SIZE) {
    return KILN_BAD_MODULE("section table (%u entries at %" PRIu64
                           ") exceeds the file",
                           section_count, table);
  }
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(m->base.allocator, section_count,
                                           sizeof(kiln_vm_bc_section_t),
                                           (void**)&m->sections));
  m->section_count = section_count;
  kiln_vm_section_view_t views[KILN_VM_SECTION_KIND_MAX + 1];
  memset(views, 0, sizeof(views));
  for (uint32_t i = 0; i < section_count; ++i) {
    const uint8_t* e = p + table + (uint64_t)i * KILN_VM_SECTION_ENTRY_SIZE;
    kiln_vm_bc_section_t* sec = &m->sections[i];
    sec->kind = kiln_vm_rd32(e);
    sec->offset = kiln_vm_rd64(e + 8);
    sec->length = kiln_vm_rd64(e + 16);
    if (sec->offset > length || sec->length > length - sec->offset) {
      return KILN_BAD_MODULE("section %u (kind %u) [%" PRIu64 ", +%" PRIu64
                             ") exceeds the file (%zu bytes)",
                             i, sec->kind, sec->offset, sec->length, length);
    }
    if (sec->kind == 0 || sec->kind > KILN_VM_SECTION_KIND_MAX) continue;
    if (views[sec->kind].present) {
      return KILN_BAD_MODULE("duplicate section of kind %u", sec->kind);
    }
    views[sec->kind].present = true;
    views[sec->kind].data = p + sec->offset;
    views[sec->kind].offset = sec->offset;
    views[sec->kind].length = sec->length;
  }
  KILN_RETURN_IF_ERROR(
      kiln_vm_parse_strings(m, &views[KILN_VM_SECTION_STRINGS]));
  KILN_RETURN_IF_ERROR(
      kiln_vm_get_string(m, kiln_vm_rd32(p + 40), "module name", &m->name));
  if (m->name.size == 0) return KILN_BAD_MODULE("empty module name");
  KILN_RETURN_IF_ERROR(
      kiln_vm_parse_imports(m, &views[KILN_VM_SECTION_IMPORTS]));
  KILN_RETURN_IF_ERROR(kiln_vm_parse_functions(
      m, &views[KILN_VM_SECTION_FUNCTIONS], &views[KILN_VM_SECTION_BYTECODE]));
  KILN_RETURN_IF_ERROR(
      kiln_vm_parse_exports(m, &views[KILN_VM_SECTION_EXPORTS]));
  KILN_RETURN_IF_ERROR(kiln_vm_parse_rodata(m, &views[KILN_VM_SECTION_RODATA]));
  KILN_RETURN_IF_ERROR(kiln_vm_prepare_rodata_checks(m));
  KILN_RETURN_IF_ERROR(
      kiln_vm_parse_executables(m, &views[KILN_VM_SECTION_EXECUTABLES]));
  KILN_RETURN_IF_ERROR(
      kiln_vm_parse_globals(m, &views[KILN_VM_SECTION_GLOBALS]));
  for (uint32_t i = 0; i < m->function_count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_vm_bytecode_verify_function(m, i));
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_bytecode_module_create(
    kiln_allocator_t allocator, kiln_vm_bytecode_module_t** out) {
  kiln_vm_bytecode_module_t* m = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*m), (void**)&m));
  kiln_vm_module_initialize(&m->base, &kiln_vm_bytecode_module_vtable,
                            allocator);
  *out = m;
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_bytecode_module_finish_load(
    kiln_vm_bytecode_module_t* m, kiln_vm_bytecode_load_flags_t flags,
    kiln_vm_module_t** out_module) {
  kiln_status_t status = kiln_vm_parse_module(m, flags);
  if (status) {
    kiln_vm_module_release(&m->base);
    return status;
  }
  *out_module = &m->base;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_module_load_memory(
    kiln_vm_instance_t* instance, const void* bytes, size_t length,
    kiln_vm_bytecode_load_flags_t flags, kiln_allocator_t allocator,
    kiln_vm_module_t** out_module) {
  *out_module = NULL;
  kiln_vm_bytecode_module_t* m = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_module_create(allocator, &m));
  if (flags & KILN_VM_BYTECODE_LOAD_FLAG_BORROW) {
    m->image = (const uint8_t*)bytes;
  } else {
    kiln_status_t status = kiln_allocator_malloc_aligned(
        allocator, length ? length : 1, 4096, &m->owned_copy);
    if (status) {
      kiln_vm_module_release(&m->base);
      return status;
    }
    if (length) memcpy(m->owned_copy, bytes, length);
    m->image = (const uint8_t*)m->owned_copy;
  }
  m->image_length = length;
  return kiln_vm_bytecode_module_finish_load(m, flags, out_module);
}

static kiln_status_t kiln_vm_read_stdin(kiln_allocator_t allocator,
                                        kiln_vm_bytecode_module_t* m) {
  size_t capacity = 1 << 16, size = 0;
  uint8_t* data = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_malloc(allocator, capacity, (void**)&data));
  for (;;) {
    if (size == capacity) {
      capacity *= 2;
      kiln_status_t status =
          kiln_allocator_realloc(allocator, capacity, (void**)&data);
      if (status) {
        kiln_allocator_free(allocator, data);
        return status;
      }
    }
    ssize_t n = read(0, data + size, capacity - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      kiln_allocator_free(allocator, data);
      return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                              "reading a module from stdin: %s",
                              strerror(errno));
    }
    if (n == 0) break;
    size += (size_t)n;
  }
  kiln_status_t status = kiln_allocator_malloc_aligned(
      allocator, size ? size : 1, 4096, &m->owned_copy);
  if (!status && size) memcpy(m->owned_copy, data, size);
  kiln_allocator_free(allocator, data);
  m->image = (const uint8_t*)m->owned_copy;
  m->image_length = size;
  return status;
}

kiln_status_t kiln_vm_bytecode_module_load_file(
    kiln_vm_instance_t* instance, const char* path,
    kiln_vm_bytecode_load_flags_t flags, kiln_allocator_t allocator,
    kiln_vm_module_t** out_module) {
  *out_module = NULL;
  kiln_vm_bytecode_module_t* m = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_bytecode_module_create(allocator, &m));
  if (strcmp(path, "-") == 0) {
    kiln_status_t status = kiln_vm_read_stdin(allocator, m);
    if (status) {
      kiln_vm_module_release(&m->base);
      return status;
    }
    return kiln_vm_bytecode_module_finish_load(m, flags, out_module);
  }
  // O_NONBLOCK: opening a FIFO (or a device) without a writer must not block
  // before the regular-file check below refuses it; reads of regular files
  // ignore the flag.
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int err = errno;
    kiln_vm_module_release(&m->base);
    return kiln_make_status(
        err == ENOENT ? KILN_STATUS_NOT_FOUND : KILN_STATUS_UNAVAILABLE,
        "cannot open module '%s': %s", path, strerror(err));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    kiln_vm_module_release(&m->base);
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "module '%s' is not a regular file", path);
  }
  size_t length = (size_t)st.st_size;
  if (length > 0) {
    void* mapping = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapping == MAP_FAILED) {
      int err = errno;
      close(fd);
      kiln_vm_module_release(&m->base);
      return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                              "cannot map module '%s': %s", path,
                              strerror(err));
    }
    m->mapping = mapping;
    m->mapping_length = length;
    m->image = (const uint8_t*)mapping;
  } else {
    m->image = (const uint8_t*)"";
  }
  close(fd);
  m->image_length = length;
  kiln_status_t status =
      kiln_vm_bytecode_module_finish_load(m, flags, out_module);
  return kiln_status_annotate_f(status, "loading '%s'", path);
}

//===----------------------------------------------------------------------===//
// Vtable
//===----------------------------------------------------------------------===//

static kiln_string_view_t kiln_vm_bc_name(kiln_vm_module_t* base) {
  return ((kiln_vm_bytecode_module_t*)base)->name;
}

static size_t kiln_vm_bc_function_count(kiln_vm_module_t* base,
                                        kiln_vm_function_linkage_t linkage) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  switch (linkage) {
    case KILN_VM_FUNCTION_LINKAGE_IMPORT:
      return m->import_count;
    case KILN_VM_FUNCTION_LINKAGE_EXPORT:
      return m->export_count;
    default:
      return m->function_count;
  }
}

static kiln_status_t kiln_vm_bc_function_info(
    kiln_vm_module_t* base, kiln_vm_function_linkage_t linkage,
    uint32_t ordinal, kiln_string_view_t* name, kiln_string_view_t* sig) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  if (ordinal >= kiln_vm_bc_function_count(base, linkage)) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "function ordinal %u out of range in '%.*s'",
                            ordinal, KILN_SV_ARG(m->name));
  }
  switch (linkage) {
    case KILN_VM_FUNCTION_LINKAGE_IMPORT:
      *name = m->imports[ordinal].name;
      *sig = m->imports[ordinal].signature;
      break;
    case KILN_VM_FUNCTION_LINKAGE_EXPORT:
      *name = m->exports[ordinal].name;
      *sig = m->functions[m->exports[ordinal].function].signature;
      break;
    default:
      *name = m->functions[ordinal].name;
      *sig = m->functions[ordinal].signature;
      break;
  }
  return kiln_ok_status();
}

static size_t kiln_vm_bc_attr_count(kiln_vm_module_t* base, uint32_t ordinal) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  return ordinal < m->export_count ? m->exports[ordinal].attr_count : 0;
}

static kiln_status_t kiln_vm_bc_attr_at(kiln_vm_module_t* base,
                                        uint32_t ordinal, size_t index,
                                        kiln_string_view_t* key,
                                        kiln_string_view_t* value) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  if (index >= kiln_vm_bc_attr_count(base, ordinal)) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "attribute %zu out of range", index);
  }
  const kiln_vm_bc_attr_t* attr =
      &m->attrs[m->exports[ordinal].first_attr + index];
  *key = attr->key;
  *value = attr->value;
  return kiln_ok_status();
}

static void kiln_vm_bc_free_state(kiln_vm_module_t* base, void* opaque) {
  kiln_vm_bc_state_t* state = (kiln_vm_bc_state_t*)opaque;
  if (!state) return;
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  if (state->rodata_buffers) {
    for (uint32_t i = 0; i < m->rodata_count; ++i) {
      kiln_ref_release(state->rodata_buffers[i]);
    }
  }
  kiln_allocator_free(state->allocator, state->rodata_buffers);
  if (state->executable_refs) {
    for (uint32_t i = 0; i < m->executable_count; ++i) {
      kiln_ref_release(state->executable_refs[i]);
    }
  }
  kiln_allocator_free(state->allocator, state->executable_refs);
  if (state->globals) {
    for (uint32_t i = 0; i < m->global_count; ++i) {
      if (state->globals[i].type == KILN_VM_VALUE_TYPE_REF) {
        kiln_ref_release(state->globals[i].ref);
      }
    }
    kiln_mutex_deinitialize(&state->globals_mutex);
  }
  kiln_allocator_free(state->allocator, state->globals);
  kiln_allocator_free(state->allocator, state->imports);
  kiln_allocator_free(state->allocator, state);
}

// The error for a parameter entry used before the module's parameters are
// bound.
static kiln_status_t kiln_vm_unbound_parameter(
    const kiln_vm_bytecode_module_t* m, const kiln_vm_rodata_info_t* r) {
  return kiln_make_status(
      KILN_STATUS_FAILED_PRECONDITION,
      "module '%.*s' needs parameter '%.*s'::'%.*s' (%" PRIu64
      " bytes); pass its file with --parameters=%.*s%sFILE",
      KILN_SV_ARG(m->name), KILN_SV_ARG(r->parameter_scope),
      KILN_SV_ARG(r->parameter_key), r->length, KILN_SV_ARG(r->parameter_scope),
      r->parameter_scope.size ? "=" : "");
}

static kiln_status_t kiln_vm_bc_create_state(kiln_vm_module_t* base,
                                             kiln_allocator_t allocator,
                                             void** out_state) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  kiln_vm_bc_state_t* state = NULL;
  KILN_RETURN_IF_ERROR(
      kiln_allocator_calloc(allocator, sizeof(*state), (void**)&state));
  state->module = m;
  state->allocator = allocator;
  kiln_status_t status = kiln_vm_alloc_array(
      allocator, m->import_count, sizeof(kiln_vm_bc_import_binding_t),
      (void**)&state->imports);
  if (!status) {
    status = kiln_vm_alloc_array(allocator, m->rodata_count,
                                 sizeof(kiln_vm_buffer_t*),
                                 (void**)&state->rodata_buffers);
  }
  for (uint32_t i = 0; !status && i < m->rodata_count; ++i) {
    const kiln_vm_rodata_info_t* r = &m->rodata[i];
    if (r->is_parameter && !r->data) {
      status = kiln_vm_unbound_parameter(m, r);
    } else if (r->splat_pattern) {
      status =
          kiln_vm_rodata_expand_splat(r, allocator, &state->rodata_buffers[i]);
      if (status) {
        status = kiln_status_annotate_f(status, "expanding splat rodata '%.*s'",
                                        KILN_SV_ARG(r->name));
      }
    } else {
      status = kiln_vm_buffer_wrap((void*)r->data, r->length, false, &base->ref,
                                   allocator, &state->rodata_buffers[i]);
    }
  }
  if (!status) {
    status = kiln_vm_alloc_array(allocator, m->executable_count,
                                 sizeof(kiln_vm_executable_ref_t*),
                                 (void**)&state->executable_refs);
  }
  for (uint32_t i = 0; !status && i < m->executable_count; ++i) {
    status = kiln_vm_executable_ref_create(base, i, allocator,
                                           &state->executable_refs[i]);
  }
  if (!status) {
    // Zero / null: calloc, then the value type of each global's bank.
    status =
        kiln_vm_alloc_array(allocator, m->global_count, sizeof(kiln_vm_value_t),
                            (void**)&state->globals);
    if (!status) kiln_mutex_initialize(&state->globals_mutex);
  }
  for (uint32_t i = 0; !status && i < m->global_count; ++i) {
    state->globals[i].type = (kiln_vm_value_type_t)(m->globals[i].bank + 1);
  }
  if (status) {
    kiln_vm_bc_free_state(base, state);
    return status;
  }
  *out_state = state;
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_bc_resolve_import(kiln_vm_module_t* base,
                                               void* opaque, uint32_t ordinal,
                                               const kiln_vm_function_t* target,
                                               void* target_state) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  kiln_vm_bc_state_t* state = (kiln_vm_bc_state_t*)opaque;
  if (ordinal >= m->import_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "import ordinal %u out of range", ordinal);
  }
  kiln_vm_bc_import_binding_t* binding = &state->imports[ordinal];
  binding->target = *target;
  binding->target_state = target_state;
  binding->target_bc_state = NULL;
  if (target->module->vtable == &kiln_vm_bytecode_module_vtable &&
      target->linkage == KILN_VM_FUNCTION_LINKAGE_EXPORT) {
    kiln_vm_bytecode_module_t* tm = (kiln_vm_bytecode_module_t*)target->module;
    binding->target_bc_state = (kiln_vm_bc_state_t*)target_state;
    binding->target_function = tm->exports[target->ordinal].function;
  }
  return kiln_ok_status();
}

static kiln_status_t kiln_vm_bc_call(kiln_vm_module_t* base, void* opaque,
                                     kiln_vm_native_call_t* call) {
  kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)base;
  uint32_t ordinal = call->function.ordinal;
  if (call->function.linkage == KILN_VM_FUNCTION_LINKAGE_EXPORT) {
    if (ordinal >= m->export_count) {
      return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                              "export ordinal %u out of range", ordinal);
    }
    ordinal = m->exports[ordinal].function;
  } else if (call->function.linkage != KILN_VM_FUNCTION_LINKAGE_INTERNAL ||
             ordinal >= m->function_count) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "cannot call function %u of linkage %d", ordinal,
                            (int)call->function.linkage);
  }
  const kiln_vm_bc_function_t* f = &m->functions[ordinal];
  KILN_RETURN_IF_ERROR(
      kiln_vm_check_args(f->name, &f->sig, call->args, call->arg_count));
  if (call->result_count != f->sig.results.size) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "function '%.*s' has %zu results, caller expects "
                            "%zu",
                            KILN_SV_ARG(f->name), f->sig.results.size,
                            call->result_count);
  }
  return kiln_vm_bytecode_run((kiln_vm_bc_state_t*)opaque, ordinal, call->args,
                              call->arg_count, call->results,
                              call->result_count, call->deadline_ns,
                              call->max_call_depth, call->trace_execution);
}

static const kiln_vm_module_vtable_t kiln_vm_bytecode_module_vtable = {
    .destroy = kiln_vm_bytecode_module_destroy,
    .name = kiln_vm_bc_name,
    .function_count = kiln_vm_bc_function_count,
    .function_info = kiln_vm_bc_function_info,
    .attr_count = kiln_vm_bc_attr_count,
    .attr_at = kiln_vm_bc_attr_at,
    .create_state = kiln_vm_bc_create_state,
    .free_state = kiln_vm_bc_free_state,
    .resolve_import = kiln_vm_bc_resolve_import,
    .call = kiln_vm_bc_call,
};

//===----------------------------------------------------------------------===//
// Accessors
//===----------------------------------------------------------------------===//

bool kiln_vm_module_is_bytecode(const kiln_vm_module_t* module) {
  return module && module->vtable == &kiln_vm_bytecode_module_vtable;
}

#define KILN_BC(module) ((kiln_vm_bytecode_module_t*)(module))

const uint8_t* kiln_vm_bytecode_module_image(kiln_vm_module_t* module,
                                             size_t* out_length) {
  *out_length = KILN_BC(module)->image_length;
  return KILN_BC(module)->image;
}

size_t kiln_vm_bytecode_module_rodata_count(kiln_vm_module_t* module) {
  return KILN_BC(module)->rodata_count;
}

kiln_status_t kiln_vm_bytecode_module_rodata_at(kiln_vm_module_t* module,
                                                size_t ordinal,
                                                kiln_vm_rodata_info_t* out) {
  if (ordinal >= KILN_BC(module)->rodata_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "rodata ordinal %zu out of range", ordinal);
  }
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_module_check_rodata(KILN_BC(module), (uint32_t)ordinal));
  *out = KILN_BC(module)->rodata[ordinal];
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_module_lookup_rodata(kiln_vm_module_t* module,
                                                    kiln_string_view_t name,
                                                    size_t* out_ordinal) {
  kiln_vm_bytecode_module_t* m = KILN_BC(module);
  for (uint32_t i = 0; i < m->rodata_count; ++i) {
    if (kiln_string_view_equal(m->rodata[i].name, name)) {
      *out_ordinal = i;
      return kiln_ok_status();
    }
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "rodata '%.*s' not found in module '%.*s'",
                          KILN_SV_ARG(name), KILN_SV_ARG(m->name));
}

kiln_status_t kiln_vm_bytecode_module_rodata_buffer(
    kiln_vm_module_t* module, size_t ordinal, kiln_vm_buffer_t** out_buffer) {
  kiln_vm_rodata_info_t info;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_module_rodata_at(module, ordinal, &info));
  if (info.is_parameter && !info.data) {
    return kiln_vm_unbound_parameter(KILN_BC(module), &info);
  }
  if (info.splat_pattern) {
    return kiln_vm_rodata_expand_splat(&info, module->allocator, out_buffer);
  }
  return kiln_vm_buffer_wrap((void*)info.data, info.length, false, &module->ref,
                             module->allocator, out_buffer);
}

size_t kiln_vm_bytecode_module_parameter_count(kiln_vm_module_t* module) {
  return KILN_BC(module)->parameter_count;
}

kiln_status_t kiln_vm_bytecode_module_bind_parameters(
    kiln_vm_module_t* module, kiln_vm_parameter_lookup_fn_t lookup,
    void* user_data, kiln_ref_object_t* owner) {
  kiln_vm_bytecode_module_t* m = KILN_BC(module);
  if (m->parameters_bound) {
    return kiln_make_status(KILN_STATUS_FAILED_PRECONDITION,
                            "module '%.*s': parameters are already bound",
                            KILN_SV_ARG(m->name));
  }
  // Resolve into a scratch array first so that a failure leaves the module
  // as it was.
  const uint8_t** found = NULL;
  KILN_RETURN_IF_ERROR(kiln_vm_alloc_array(module->allocator, m->rodata_count,
                                           sizeof(*found), (void**)&found));
  kiln_status_t status = kiln_ok_status();
  for (uint32_t i = 0; !status && i < m->rodata_count; ++i) {
    kiln_vm_rodata_info_t* r = &m->rodata[i];
    if (!r->is_parameter) continue;
    uint64_t length = 0;
    status = lookup(user_data, r->parameter_scope, r->parameter_key, &found[i],
                    &length);
    if (!status && length != r->length) {
      status = kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "parameter '%.*s'::'%.*s' has %" PRIu64
          " bytes; module '%.*s' was compiled for %" PRIu64 " bytes",
          KILN_SV_ARG(r->parameter_scope), KILN_SV_ARG(r->parameter_key),
          length, KILN_SV_ARG(m->name), r->length);
    }
    if (!status && found[i] && ((uintptr_t)found[i] % r->alignment)) {
      status = kiln_make_status(
          KILN_STATUS_INVALID_ARGUMENT,
          "parameter '%.*s'::'%.*s' is not %u-byte aligned in memory",
          KILN_SV_ARG(r->parameter_scope), KILN_SV_ARG(r->parameter_key),
          r->alignment);
    }
    if (status) {
      status = kiln_status_annotate_f(
          status, "binding the parameters of '%.*s'", KILN_SV_ARG(m->name));
    }
  }
  if (!status) {
    for (uint32_t i = 0; i < m->rodata_count; ++i) {
      if (!m->rodata[i].is_parameter) continue;
      m->rodata[i].data = found[i] ? found[i] : (const uint8_t*)"";
    }
    m->parameters_bound = true;
    kiln_ref_retain(owner);
    m->parameter_owner = owner;
  }
  kiln_allocator_free(module->allocator, found);
  return status;
}

size_t kiln_vm_bytecode_module_executable_count(kiln_vm_module_t* module) {
  return KILN_BC(module)->executable_count;
}

kiln_status_t kiln_vm_bytecode_module_executable_at(
    kiln_vm_module_t* module, size_t ordinal, kiln_vm_executable_info_t* out) {
  if (ordinal >= KILN_BC(module)->executable_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "executable ordinal %zu out of range", ordinal);
  }
  *out = KILN_BC(module)->executables[ordinal].info;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_module_executable_entry_point_at(
    kiln_vm_module_t* module, size_t executable_ordinal, size_t index,
    kiln_vm_executable_entry_point_t* out) {
  kiln_vm_bytecode_module_t* m = KILN_BC(module);
  if (executable_ordinal >= m->executable_count ||
      index >= m->executables[executable_ordinal].info.entry_point_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "executable %zu entry point %zu out of range",
                            executable_ordinal, index);
  }
  *out =
      m->entry_points[m->executables[executable_ordinal].first_entry + index];
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_module_lookup_executable(
    kiln_vm_module_t* module, kiln_string_view_t name, size_t* out_ordinal) {
  kiln_vm_bytecode_module_t* m = KILN_BC(module);
  for (uint32_t i = 0; i < m->executable_count; ++i) {
    if (kiln_string_view_equal(m->executables[i].info.name, name)) {
      *out_ordinal = i;
      return kiln_ok_status();
    }
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "executable '%.*s' not found in module '%.*s'",
                          KILN_SV_ARG(name), KILN_SV_ARG(m->name));
}

kiln_status_t kiln_vm_bytecode_module_executable_data_buffer(
    kiln_vm_module_t* module, size_t ordinal, kiln_vm_buffer_t** out_buffer) {
  kiln_vm_executable_info_t info;
  KILN_RETURN_IF_ERROR(
      kiln_vm_bytecode_module_executable_at(module, ordinal, &info));
  return kiln_vm_buffer_wrap((void*)info.data, info.data_length, false,
                             &module->ref, module->allocator, out_buffer);
}

size_t kiln_vm_bytecode_module_global_count(kiln_vm_module_t* module) {
  return KILN_BC(module)->global_count;
}

kiln_status_t kiln_vm_bytecode_module_global_at(kiln_vm_module_t* module,
                                                size_t ordinal,
                                                kiln_string_view_t* out_name,
                                                uint32_t* out_bank) {
  kiln_vm_bytecode_module_t* m = KILN_BC(module);
  if (ordinal >= m->global_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "global ordinal %zu out of range (%u globals)",
                            ordinal, m->global_count);
  }
  *out_name = m->globals[ordinal].name;
  *out_bank = m->globals[ordinal].bank;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_module_function_code(kiln_vm_module_t* module,
                                                    uint32_t ordinal,
                                                    const uint8_t** out_code,
                                                    uint32_t* out_length) {
  kiln_vm_bytecode_module_t* m = KILN_BC(module);
  if (ordinal >= m->function_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "function ordinal %u out of range", ordinal);
  }
  *out_code = m->functions[ordinal].code;
  *out_length = m->functions[ordinal].code_length;
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_module_function_registers(
    kiln_vm_module_t* module, uint32_t ordinal, uint16_t out_counts[5]) {
  kiln_vm_bytecode_module_t* m = KILN_BC(module);
  if (ordinal >= m->function_count) {
    return kiln_make_status(KILN_STATUS_OUT_OF_RANGE,
                            "function ordinal %u out of range", ordinal);
  }
  memcpy(out_counts, m->functions[ordinal].regs, sizeof(uint16_t) * 5);
  return kiln_ok_status();
}
