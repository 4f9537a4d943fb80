// .irpa writer: header, entry table, names (metadata segment), then the data
// (storage segment, each entry 64-byte aligned in the file).
#include "runtime/io/irpa_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KILN_IO_IRPA_HEADER_SIZE 88
#define KILN_IO_IRPA_DATA_ALIGNMENT 64

static uint64_t kiln_io_align(uint64_t v, uint64_t a) {
  return (v + a - 1) & ~(a - 1);
}

static void kiln_io_put64(uint8_t* p, uint64_t v) {
  memcpy(p, &v, 8);
}
static void kiln_io_put32(uint8_t* p, uint32_t v) {
  memcpy(p, &v, 4);
}

// Size of entry |e| in the table (before 16-byte padding).
static uint64_t kiln_io_entry_size(const kiln_io_irpa_entry_t* e) {
  return e->splat_pattern_length ? 85 : 76;
}

kiln_status_t kiln_io_irpa_write_file(const char* path,
                                      const kiln_io_irpa_entry_t* entries,
                                      size_t count) {
  for (size_t i = 0; i < count; ++i) {
    uint8_t n = entries[i].splat_pattern_length;
    if (n && (!(n == 1 || n == 2 || n == 4 || n == 8 || n == 16) ||
              entries[i].length % n)) {
      return kiln_make_status(KILN_STATUS_INVALID_ARGUMENT,
                              "splat parameter '%.*s': pattern of %u bytes",
                              KILN_SV_ARG(entries[i].key), n);
    }
  }
  uint64_t table_offset = kiln_io_align(KILN_IO_IRPA_HEADER_SIZE, 16);
  uint64_t table_length = 0;
  uint64_t meta_length = 0;
  for (size_t i = 0; i < count; ++i) {
    table_length += kiln_io_align(kiln_io_entry_size(&entries[i]), 16);
    meta_length += entries[i].key.size;
  }
  uint64_t meta_offset = table_offset + table_length;
  uint64_t storage_offset =
      kiln_io_align(meta_offset + meta_length, KILN_IO_IRPA_DATA_ALIGNMENT);
  uint64_t storage_length = 0;
  for (size_t i = 0; i < count; ++i) {
    if (entries[i].splat_pattern_length) continue;
    storage_length =
        kiln_io_align(storage_length, KILN_IO_IRPA_DATA_ALIGNMENT) +
        entries[i].length;
  }
  // Header, table and names are built in memory; data is streamed.
  size_t head_length = (size_t)storage_offset;
  uint8_t* head = (uint8_t*)calloc(1, head_length);
  if (!head) {
    return kiln_make_status(KILN_STATUS_RESOURCE_EXHAUSTED,
                            "out of memory writing '%s'", path);
  }
  kiln_io_put32(head, 0x41505249u);  // "IRPA"
  // version 0.0 (bytes 4..7 zero)
  kiln_io_put64(head + 8, KILN_IO_IRPA_HEADER_SIZE);
  kiln_io_put64(head + 32, count);
  kiln_io_put64(head + 40, table_offset);
  kiln_io_put64(head + 48, table_length);
  kiln_io_put64(head + 56, meta_offset);
  kiln_io_put64(head + 64, meta_length);
  kiln_io_put64(head + 72, storage_offset);
  kiln_io_put64(head + 80, storage_length);
  uint64_t entry = table_offset, name = 0, data = 0;
  for (size_t i = 0; i < count; ++i) {
    const kiln_io_irpa_entry_t* e = &entries[i];
    uint8_t* p = head + entry;
    kiln_io_put64(p, kiln_io_entry_size(e));
    kiln_io_put32(p + 8, e->splat_pattern_length ? 1 : 2);
    kiln_io_put64(p + 20, name);
    kiln_io_put64(p + 28, e->key.size);
    kiln_io_put64(p + 52, KILN_IO_IRPA_DATA_ALIGNMENT);
    if (e->splat_pattern_length) {
      kiln_io_put64(p + 60, e->length);
      memcpy(p + 68, e->splat_pattern, 16);
      p[84] = e->splat_pattern_length;
    } else {
      data = kiln_io_align(data, KILN_IO_IRPA_DATA_ALIGNMENT);
      kiln_io_put64(p + 60, data);
      kiln_io_put64(p + 68, e->length);
      data += e->length;
    }
    if (e->key.size)
      memcpy(head + meta_offset + name, e->key.data, e->key.size);
    name += e->key.size;
    entry += kiln_io_align(kiln_io_entry_size(e), 16);
  }
  FILE* f = fopen(path, "wb");
  if (!f) {
    int err = errno;
    free(head);
    return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                            "cannot write parameter archive '%s': %s", path,
                            strerror(err));
  }
  bool ok = fwrite(head, 1, head_length, f) == head_length;
  free(head);
  static const uint8_t kZeros[KILN_IO_IRPA_DATA_ALIGNMENT] = {0};
  data = 0;
  for (size_t i = 0; ok && i < count; ++i) {
    const kiln_io_irpa_entry_t* e = &entries[i];
    if (e->splat_pattern_length) continue;
    uint64_t pad = kiln_io_align(data, KILN_IO_IRPA_DATA_ALIGNMENT) - data;
    ok = fwrite(kZeros, 1, (size_t)pad, f) == pad &&
         (!e->length || fwrite(e->data, 1, (size_t)e->length, f) == e->length);
    data += pad + e->length;
  }
  if (fclose(f) != 0) ok = false;
  if (!ok) {
    return kiln_make_status(KILN_STATUS_UNAVAILABLE,
                            "error writing parameter archive '%s'", path);
  }
  return kiln_ok_status();
}
