// Disassembler and module dump (kiln-dump-module): prints a loaded bytecode
// module in the assembly syntax of vm-bytecode.md, with its metadata
// (version, sections, register counts, offsets) as '#' comments.
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/vm/bytecode_module_impl.h"

static void kiln_vm_indent(FILE* s, int indent) {
  for (int i = 0; i < indent; ++i) fputs("  ", s);
}

// Prints |sv| as a quoted string literal with \" \\ and \xx escapes.
static void kiln_vm_print_quoted(FILE* s, kiln_string_view_t sv) {
  fputc('"', s);
  for (size_t i = 0; i < sv.size; ++i) {
    unsigned char c = (unsigned char)sv.data[i];
    if (c == '"' || c == '\\') {
      fputc('\\', s);
      fputc(c, s);
    } else if (c < 0x20 || c >= 0x7f) {
      fprintf(s, "\\%02x", c);
    } else {
      fputc(c, s);
    }
  }
  fputc('"', s);
}

// Prints a symbol name: @name, quoted when it has unusual characters.
static void kiln_vm_print_symbol(FILE* s, kiln_string_view_t sv) {
  bool plain = sv.size > 0;
  for (size_t i = 0; i < sv.size; ++i) {
    char c = sv.data[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
          c == '-')) {
      plain = false;
    }
  }
  fputc('@', s);
  if (plain) {
    fprintf(s, "%.*s", KILN_SV_ARG(sv));
  } else {
    kiln_vm_print_quoted(s, sv);
  }
}

static void kiln_vm_print_reglist(FILE* s, const uint8_t* list, bool parens) {
  if (parens) fputc('(', s);
  for (uint32_t i = 0; i < list[0]; ++i) {
    fprintf(s, "%s%%%c%u", i ? ", " : "", kiln_vm_bank_prefix(list[1 + 3 * i]),
            kiln_vm_rd16(list + 2 + 3 * i));
  }
  if (parens) fputc(')', s);
}

static void kiln_vm_print_f64(FILE* s, double v) {
  if (v != v) {
    fputs("nan", s);
  } else {
    fprintf(s, "%.17g", v);
  }
}

// Length of the (verified) instruction at |ip|.
static uint32_t kiln_vm_instruction_size(const uint8_t* ip) {
  const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(kiln_vm_rd16(ip));
  uint32_t p = 2;
  for (const char* c = info->format; *c; ++c) {
    p += kiln_vm_operand_size(*c, ip + p);
  }
  return p;
}

void kiln_vm_bytecode_print_instruction(FILE* s,
                                        const kiln_vm_bytecode_module_t* m,
                                        const uint8_t* ip) {
  uint32_t opcode = kiln_vm_rd16(ip);
  const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(opcode);
  fputs(info->mnemonic, s);
  uint32_t p = 2;
  char prev = 0;
  for (const char* c = info->format; *c; prev = *c, ++c) {
    if (*c == 'A' && (prev == 'C' || prev == 'M')) {
      // call @f(args)
    } else if (*c == 'A' && prev == 'A') {
      fputs(" ->", s);
      fputc(' ', s);
    } else if (!(*c == 'A' && opcode == KILN_VM_OP_RET && ip[p] == 0)) {
      fputs(c == info->format ? " " : ", ", s);
    }
    switch (*c) {
      case 'i':
      case 'l':
      case 'f':
      case 'd':
      case 'r':
        fprintf(s, "%%%c%u", *c, kiln_vm_rd16(ip + p));
        p += 2;
        break;
      case 'I':
        fprintf(s, "%d", (int32_t)kiln_vm_rd32(ip + p));
        p += 4;
        break;
      case 'L':
        fprintf(s, "%" PRId64, (int64_t)kiln_vm_rd64(ip + p));
        p += 8;
        break;
      case 'F': {
        float v;
        memcpy(&v, ip + p, 4);
        if (v != v) {
          fputs("nan", s);
        } else {
          fprintf(s, "%.9g", v);
        }
        p += 4;
        break;
      }
      case 'D': {
        double v;
        memcpy(&v, ip + p, 8);
        kiln_vm_print_f64(s, v);
        p += 8;
        break;
      }
      case 'B':
        fprintf(s, "^L%u", kiln_vm_rd32(ip + p));
        p += 4;
        break;
      case 'R':
        kiln_vm_print_symbol(s, m->rodata[kiln_vm_rd32(ip + p)].name);
        p += 4;
        break;
      case 'E':
        kiln_vm_print_symbol(s, m->executables[kiln_vm_rd32(ip + p)].info.name);
        p += 4;
        break;
      case 'G':
        kiln_vm_print_symbol(s, m->globals[kiln_vm_rd32(ip + p)].name);
        p += 4;
        break;
      case 'S':
        kiln_vm_print_quoted(s, m->strings[kiln_vm_rd32(ip + p)]);
        p += 4;
        break;
      case 'C':
        kiln_vm_print_symbol(s, m->functions[kiln_vm_rd32(ip + p)].name);
        p += 4;
        break;
      case 'M':
        kiln_vm_print_symbol(s, m->imports[kiln_vm_rd32(ip + p)].name);
        p += 4;
        break;
      case 'A':
        kiln_vm_print_reglist(s, ip + p, opcode != KILN_VM_OP_RET);
        p += kiln_vm_reglist_size(ip + p);
        break;
      case 'W': {
        uint32_t count = kiln_vm_rd16(ip + p);
        fputc('[', s);
        for (uint32_t k = 0; k < count; ++k) {
          fprintf(s, "%s^L%u", k ? ", " : "", kiln_vm_rd32(ip + p + 2 + 4 * k));
        }
        fputc(']', s);
        p += 2 + 4 * count;
        break;
      }
    }
  }
}

static kiln_status_t kiln_vm_print_function(FILE* s,
                                            const kiln_vm_bytecode_module_t* m,
                                            uint32_t ordinal, int indent,
                                            bool bodies) {
  const kiln_vm_bc_function_t* f = &m->functions[ordinal];
  const kiln_vm_bc_export_t* self_export = NULL;
  for (uint32_t i = 0; i < m->export_count; ++i) {
    if (m->exports[i].function == ordinal &&
        kiln_string_view_equal(m->exports[i].name, f->name)) {
      self_export = &m->exports[i];
      break;
    }
  }
  kiln_vm_indent(s, indent);
  fputs("func ", s);
  kiln_vm_print_symbol(s, f->name);
  fprintf(s,
          " : %.*s%s {  # registers i32=%u i64=%u f32=%u f64=%u ref=%u, "
          "code %u bytes at bytecode offset %u\n",
          KILN_SV_ARG(f->signature), self_export ? " export" : "", f->regs[0],
          f->regs[1], f->regs[2], f->regs[3], f->regs[4], f->code_length,
          f->code_offset);
  if (self_export) {
    for (uint32_t a = 0; a < self_export->attr_count; ++a) {
      const kiln_vm_bc_attr_t* attr = &m->attrs[self_export->first_attr + a];
      kiln_vm_indent(s, indent + 1);
      fputs("attr ", s);
      kiln_vm_print_quoted(s, attr->key);
      fputc(' ', s);
      kiln_vm_print_quoted(s, attr->value);
      fputc('\n', s);
    }
  }
  if (!bodies) {  // --output=metadata: the signature and attributes only
    kiln_vm_indent(s, indent);
    fputs("}\n", s);
    return kiln_ok_status();
  }
  // Mark branch targets to print labels.
  uint8_t* labels = (uint8_t*)calloc(f->code_length, 1);
  if (!labels) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  }
  for (uint32_t pc = 0; pc < f->code_length;) {
    const uint8_t* ip = f->code + pc;
    const kiln_vm_opcode_info_t* info = kiln_vm_opcode_info(kiln_vm_rd16(ip));
    uint32_t p = 2;
    for (const char* c = info->format; *c; ++c) {
      if (*c == 'B') {
        labels[kiln_vm_rd32(ip + p)] = 1;
      } else if (*c == 'W') {
        for (uint32_t k = 0; k < kiln_vm_rd16(ip + p); ++k) {
          labels[kiln_vm_rd32(ip + p + 2 + 4 * k)] = 1;
        }
      }
      p += kiln_vm_operand_size(*c, ip + p);
    }
    pc += p;
  }
  for (uint32_t pc = 0; pc < f->code_length;) {
    const uint8_t* ip = f->code + pc;
    if (labels[pc]) {
      kiln_vm_indent(s, indent);
      fprintf(s, "^L%u:\n", pc);
    }
    kiln_vm_indent(s, indent + 1);
    kiln_vm_bytecode_print_instruction(s, m, ip);
    fputc('\n', s);
    pc += kiln_vm_instruction_size(ip);
  }
  free(labels);
  kiln_vm_indent(s, indent);
  fputs("}\n", s);
  return kiln_ok_status();
}

static const char* kiln_vm_section_name(uint32_t kind) {
  switch (kind) {
    case KILN_VM_SECTION_STRINGS:
      return "strings";
    case KILN_VM_SECTION_IMPORTS:
      return "imports";
    case KILN_VM_SECTION_EXPORTS:
      return "exports";
    case KILN_VM_SECTION_FUNCTIONS:
      return "functions";
    case KILN_VM_SECTION_BYTECODE:
      return "bytecode";
    case KILN_VM_SECTION_RODATA:
      return "rodata";
    case KILN_VM_SECTION_EXECUTABLES:
      return "executables";
    case KILN_VM_SECTION_GLOBALS:
      return "globals";
    case KILN_VM_SECTION_RODATA_CHECKSUMS:
      return "rodata_checksums";
    default:
      return "unknown";
  }
}

static void kiln_vm_print_hex(FILE* s, const uint8_t* data, size_t length) {
  for (size_t i = 0; i < length; ++i) fprintf(s, "%02x", data[i]);
}

static kiln_status_t kiln_vm_dump_module(const kiln_vm_bytecode_module_t* m,
                                         FILE* s, int indent, bool bodies) {
  kiln_vm_indent(s, indent);
  fputs("module ", s);
  kiln_vm_print_symbol(s, m->name);
  fputs(indent ? " {\n" : "\n", s);
  int in = indent ? indent + 1 : 0;
  kiln_vm_indent(s, in);
  fprintf(s, "# format version %u.%u, %zu bytes, crc32 0x%08x\n",
          m->version_major, m->version_minor, m->image_length, m->crc32);
  for (uint32_t i = 0; i < m->section_count; ++i) {
    kiln_vm_indent(s, in);
    fprintf(s, "# section %s: offset %" PRIu64 ", length %" PRIu64 "\n",
            kiln_vm_section_name(m->sections[i].kind), m->sections[i].offset,
            m->sections[i].length);
  }
  for (uint32_t i = 0; i < m->import_count; ++i) {
    kiln_vm_indent(s, in);
    fputs("import ", s);
    kiln_vm_print_symbol(s, m->imports[i].name);
    fprintf(s, " : %.*s\n", KILN_SV_ARG(m->imports[i].signature));
  }
  for (uint32_t i = 0; i < m->global_count; ++i) {
    static const char* const kBankNames[KILN_VM_BANK_COUNT] = {
        "i32", "i64", "f32", "f64", "ref"};
    kiln_vm_indent(s, in);
    fputs("global ", s);
    kiln_vm_print_symbol(s, m->globals[i].name);
    fprintf(s, " : %s\n", kBankNames[m->globals[i].bank]);
  }
  for (uint32_t i = 0; i < m->rodata_count; ++i) {
    const kiln_vm_rodata_info_t* r = &m->rodata[i];
    size_t shown = r->length < 32 ? (size_t)r->length : 32;
    kiln_vm_indent(s, in);
    fputs("rodata ", s);
    kiln_vm_print_symbol(s, r->name);
    if (r->is_parameter) {
      fprintf(s, " align %u : parameter ", r->alignment);
      kiln_vm_print_quoted(s, r->parameter_scope);
      fputs(" ", s);
      kiln_vm_print_quoted(s, r->parameter_key);
      fprintf(s, " %" PRIu64 "  # %s, file offset %" PRIu64 "\n", r->length,
              r->data ? "bound" : "unbound", r->file_offset);
      continue;
    }
    if (r->splat_pattern) {
      fprintf(s, " align %u : splat %" PRIu64 " x hex \"", r->alignment,
              r->length / r->splat_pattern_length);
      kiln_vm_print_hex(s, r->splat_pattern, r->splat_pattern_length);
      fprintf(s, "\"  # %" PRIu64 " bytes, file offset %" PRIu64 "\n",
              r->length, r->file_offset);
      continue;
    }
    fprintf(s, " align %u : hex \"", r->alignment);
    kiln_vm_print_hex(s, r->data, shown);
    fprintf(s, "\"  # %" PRIu64 " bytes%s, file offset %" PRIu64 "\n",
            r->length, shown < r->length ? " (first 32 shown)" : "",
            r->file_offset);
  }
  for (uint32_t i = 0; i < m->executable_count; ++i) {
    const kiln_vm_bc_executable_t* x = &m->executables[i];
    kiln_vm_indent(s, in);
    fputs("executable ", s);
    kiln_vm_print_symbol(s, x->info.name);
    fputs(" : ", s);
    kiln_vm_print_quoted(s, x->info.format);
    fprintf(s, " {  # data %" PRIu64 " bytes at file offset %" PRIu64,
            x->info.data_length, x->data_file_offset);
    if (x->info.has_digest) {
      fputs(", sha256 ", s);
      kiln_vm_print_hex(s, x->info.digest, 32);
    }
    fputc('\n', s);
    for (size_t e = 0; e < x->info.entry_point_count; ++e) {
      const kiln_vm_executable_entry_point_t* ep =
          &m->entry_points[x->first_entry + e];
      kiln_vm_indent(s, in + 1);
      fputs("entry ", s);
      kiln_vm_print_symbol(s, ep->name);
      fprintf(s, " workgroup %u %u %u local_memory %u source ",
              ep->workgroup_size[0], ep->workgroup_size[1],
              ep->workgroup_size[2], ep->local_memory_bytes);
      kiln_vm_print_quoted(s, ep->source_location);
      fputc('\n', s);
    }
    bool nested = kiln_string_view_equal_cstr(x->info.format, "vmvx-bytecode");
    if (nested) {
      kiln_vm_module_t* inner = NULL;
      kiln_status_t status = kiln_vm_bytecode_module_load_memory(
          NULL, x->info.data, x->info.data_length,
          KILN_VM_BYTECODE_LOAD_FLAG_BORROW, m->base.allocator, &inner);
      if (status) {
        kiln_vm_indent(s, in + 1);
        fprintf(s, "# nested module is invalid: %s\n",
                kiln_status_message(status));
        kiln_status_free(status);
      } else {
        status = kiln_vm_dump_module((kiln_vm_bytecode_module_t*)inner, s,
                                     in + 1, bodies);
        kiln_vm_module_release(inner);
        KILN_RETURN_IF_ERROR(status);
      }
    } else {
      size_t shown = x->info.data_length < 32 ? x->info.data_length : 32;
      kiln_vm_indent(s, in + 1);
      fputs("data hex \"", s);
      kiln_vm_print_hex(s, x->info.data, shown);
      fprintf(s, "\"%s\n",
              shown < x->info.data_length ? "  # first 32 bytes shown" : "");
    }
    kiln_vm_indent(s, in);
    fputs("}\n", s);
  }
  for (uint32_t i = 0; i < m->function_count; ++i) {
    KILN_RETURN_IF_ERROR(kiln_vm_print_function(s, m, i, in, bodies));
  }
  for (uint32_t i = 0; i < m->export_count; ++i) {
    const kiln_vm_bc_export_t* x = &m->exports[i];
    const kiln_vm_bc_function_t* f = &m->functions[x->function];
    bool self = false;
    for (uint32_t j = 0; j < m->export_count; ++j) {
      if (m->exports[j].function == x->function &&
          kiln_string_view_equal(m->exports[j].name, f->name)) {
        self = j == i;
        break;
      }
    }
    if (self) continue;
    kiln_vm_indent(s, in);
    fputs("export ", s);
    kiln_vm_print_symbol(s, x->name);
    fputs(" = ", s);
    kiln_vm_print_symbol(s, f->name);
    fputc('\n', s);
    for (uint32_t a = 0; a < x->attr_count; ++a) {
      const kiln_vm_bc_attr_t* attr = &m->attrs[x->first_attr + a];
      kiln_vm_indent(s, in + 1);
      fputs("attr ", s);
      kiln_vm_print_quoted(s, attr->key);
      fputc(' ', s);
      kiln_vm_print_quoted(s, attr->value);
      fputc('\n', s);
    }
  }
  if (indent) {
    kiln_vm_indent(s, indent);
    fputs("}\n", s);
  }
  return kiln_ok_status();
}

kiln_status_t kiln_vm_bytecode_module_dump(kiln_vm_module_t* module,
                                           FILE* stream) {
  if (!kiln_vm_module_is_bytecode(module)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "not a bytecode module");
  }
  return kiln_vm_dump_module((kiln_vm_bytecode_module_t*)module, stream, 0,
                             true);
}

kiln_status_t kiln_vm_bytecode_module_dump_with_options(
    kiln_vm_module_t* module, const kiln_vm_bytecode_dump_options_t* options,
    FILE* stream) {
  if (!kiln_vm_module_is_bytecode(module)) {
    return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                            "not a bytecode module");
  }
  const kiln_vm_bytecode_module_t* m = (kiln_vm_bytecode_module_t*)module;
  if (!options->function) {
    return kiln_vm_dump_module(m, stream, 0, options->function_bodies);
  }
  // One function, by its own name or an export's.
  kiln_string_view_t want = kiln_make_cstring_view(options->function);
  for (uint32_t i = 0; i < m->function_count; ++i) {
    if (kiln_string_view_equal(m->functions[i].name, want)) {
      return kiln_vm_print_function(stream, m, i, 0, options->function_bodies);
    }
  }
  for (uint32_t i = 0; i < m->export_count; ++i) {
    if (kiln_string_view_equal(m->exports[i].name, want)) {
      return kiln_vm_print_function(stream, m, m->exports[i].function, 0,
                                    options->function_bodies);
    }
  }
  char names[512];
  size_t used = 0;
  names[0] = 0;
  for (uint32_t i = 0; i < m->export_count && used < sizeof(names); ++i) {
    used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%.*s",
                             i ? ", " : "", KILN_SV_ARG(m->exports[i].name));
  }
  return kiln_make_status(KILN_STATUS_NOT_FOUND,
                          "module has no function '%s' (exports: %s)",
                          options->function, used ? names : "none");
}
