// Tests of the local drivers through the public HAL API: devices from URIs,
// transfers, reusable command buffers with binding tables, fence ordering
// and failure propagation, and dispatches of a native executable loaded from
// memory on local-sync and local-task with several worker counts.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/trace_recorder.h"
#include "runtime/hal/api.h"
#include "runtime/testing/test.h"

static kiln_allocator_t host(void) {
  return kiln_allocator_system();
}

static kiln_hal_device_t* make_device(const char* uri, uint32_t workers,
                                      bool allow_native) {
  kiln_hal_device_params_t params;
  memset(&params, 0, sizeof(params));
  params.task_worker_count = workers;
  params.allow_native_executables = allow_native;
  kiln_hal_device_t* device = NULL;
  kiln_status_t status = kiln_hal_create_device(
      kiln_hal_driver_registry_default(), kiln_make_cstring_view(uri), &params,
      host(), &device);
  if (status) {
    kiln_status_fprint(stderr, status);
    kiln_status_free(status);
  }
  return device;
}

static kiln_hal_buffer_t* make_buffer(kiln_hal_device_t* device,
                                      uint64_t size) {
  kiln_hal_buffer_t* buffer = NULL;
  kiln_status_t status = kiln_hal_allocator_allocate_buffer(
      kiln_hal_device_allocator(device), NULL, size, &buffer);
  if (status) kiln_status_free(status);
  return buffer;
}

// Submits |cb| with |table| and waits for completion.
static kiln_status_t execute_and_wait(
    kiln_hal_device_t* device, kiln_hal_command_buffer_t* cb,
    const kiln_hal_buffer_binding_table_t* table) {
  kiln_hal_semaphore_t* semaphore = NULL;
  KILN_RETURN_IF_ERROR(kiln_hal_device_create_semaphore(device, 0, &semaphore));
  kiln_hal_fence_t* signal = NULL;
  kiln_status_t status =
      kiln_hal_fence_create_at(semaphore, 1, host(), &signal);
  if (!status) {
    status = kiln_hal_device_queue_execute(device, NULL, signal, 1, &cb, table);
  }
  if (!status) status = kiln_hal_fence_wait(signal, KILN_HAL_INFINITE_DEADLINE);
  kiln_hal_fence_release(signal);
  kiln_hal_semaphore_release(semaphore);
  return status;
}

static const char* kDrivers[] = {"local-sync", "local-task"};

KILN_TEST(device_creation) {
  kiln_hal_device_t* device = NULL;
  kiln_status_t status = kiln_hal_create_device(
      NULL, kiln_make_cstring_view("foo"), NULL, host(), &device);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_NOT_FOUND);
  KILN_EXPECT_CONTAINS(
      kiln_status_message(status),
      "unknown device 'foo'; available drivers: local-sync, local-task");
  kiln_status_free(status);
  const char* uris[] = {"local-sync", "local-sync://", "local-task",
                        "local-task://"};
  for (int i = 0; i < 4; ++i) {
    device = make_device(uris[i], 2, false);
    KILN_ASSERT_TRUE(device);
    KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(
        kiln_hal_device_id(device), i < 2 ? "local-sync" : "local-task"));
    kiln_hal_device_release(device);
  }
}

KILN_TEST(transfers) {
  for (int d = 0; d < 2; ++d) {
    kiln_hal_device_t* device = make_device(kDrivers[d], 2, false);
    KILN_ASSERT_TRUE(device);
    kiln_hal_buffer_t* a = make_buffer(device, 64);
    kiln_hal_buffer_t* b = make_buffer(device, 64);
    kiln_hal_command_buffer_t* cb = NULL;
    KILN_ASSERT_OK(kiln_hal_command_buffer_create(
        device, KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &cb));
    uint8_t p1 = 0x11;
    uint16_t p2 = 0x2233;
    uint32_t p4 = 0x44556677;
    KILN_EXPECT_OK(kiln_hal_command_buffer_fill_buffer(
        cb, kiln_hal_make_buffer_ref(a, 0, 64), &p1, 1));
    KILN_EXPECT_OK(kiln_hal_command_buffer_fill_buffer(
        cb, kiln_hal_make_buffer_ref(a, 8, 8), &p2, 2));
    KILN_EXPECT_OK(kiln_hal_command_buffer_fill_buffer(
        cb, kiln_hal_make_buffer_ref(a, 16, 8), &p4, 4));
    uint8_t bytes[4] = {0xA0, 0xA1, 0xA2, 0xA3};
    KILN_EXPECT_OK(kiln_hal_command_buffer_update_buffer(
        cb, bytes, 4, kiln_hal_make_buffer_ref(a, 60, 0)));
    KILN_EXPECT_OK(kiln_hal_command_buffer_execution_barrier(cb));
    KILN_EXPECT_OK(kiln_hal_command_buffer_copy_buffer(
        cb, kiln_hal_make_buffer_ref(a, 0, 0),
        kiln_hal_make_buffer_ref(b, 0, 0), 64));
    // Validation at record time.
    KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE,
                       kiln_hal_command_buffer_copy_buffer(
                           cb, kiln_hal_make_buffer_ref(a, 32, 0),
                           kiln_hal_make_buffer_ref(b, 0, 0), 64));
    KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                       kiln_hal_command_buffer_fill_buffer(
                           cb, kiln_hal_make_buffer_ref(a, 1, 4), &p2, 2));
    KILN_EXPECT_STATUS(
        KILN_STATUS_OUT_OF_RANGE,
        kiln_hal_command_buffer_fill_buffer(
            cb, kiln_hal_make_indirect_buffer_ref(0, 0, 4), &p1, 1));
    // Not finalized yet.
    KILN_EXPECT_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       execute_and_wait(device, cb, NULL));
    KILN_EXPECT_OK(kiln_hal_command_buffer_finalize(cb));
    KILN_EXPECT_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       kiln_hal_command_buffer_execution_barrier(cb));
    KILN_EXPECT_OK(execute_and_wait(device, cb, NULL));
    // One-shot: a second execution is refused.
    KILN_EXPECT_STATUS(KILN_STATUS_FAILED_PRECONDITION,
                       execute_and_wait(device, cb, NULL));
    uint8_t out[64];
    KILN_EXPECT_OK(kiln_hal_buffer_map_read(b, 0, out, 64));
    KILN_EXPECT_EQ_INT(out[0], 0x11);
    KILN_EXPECT_EQ_INT(out[7], 0x11);
    KILN_EXPECT_EQ_INT(out[8], 0x33);
    KILN_EXPECT_EQ_INT(out[9], 0x22);
    KILN_EXPECT_EQ_INT(out[15], 0x22);
    KILN_EXPECT_EQ_INT(out[16], 0x77);
    KILN_EXPECT_EQ_INT(out[19], 0x44);
    KILN_EXPECT_EQ_INT(out[24], 0x11);
    KILN_EXPECT_EQ_INT(out[60], 0xA0);
    KILN_EXPECT_EQ_INT(out[63], 0xA3);
    kiln_hal_command_buffer_release(cb);

    // Queue conveniences, chained by fences.
    kiln_hal_semaphore_t* s = NULL;
    KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &s));
    kiln_hal_fence_t *f1 = NULL, *f2 = NULL, *f3 = NULL;
    KILN_ASSERT_OK(kiln_hal_fence_create_at(s, 1, host(), &f1));
    KILN_ASSERT_OK(kiln_hal_fence_create_at(s, 2, host(), &f2));
    KILN_ASSERT_OK(kiln_hal_fence_create_at(s, 3, host(), &f3));
    uint32_t words[4] = {1, 2, 3, 4};
    KILN_EXPECT_OK(
        kiln_hal_device_queue_write(device, NULL, f1, words, a, 0, 16));
    KILN_EXPECT_OK(kiln_hal_device_queue_copy(device, f1, f2, a, 0, b, 16, 16));
    uint32_t read_back[8] = {0};
    KILN_EXPECT_OK(
        kiln_hal_device_queue_read(device, f2, f3, b, 0, read_back, 32));
    KILN_EXPECT_OK(kiln_hal_fence_wait(f3, KILN_HAL_INFINITE_DEADLINE));
    KILN_EXPECT_EQ_INT(read_back[4], 1);
    KILN_EXPECT_EQ_INT(read_back[7], 4);
    KILN_EXPECT_EQ_INT(read_back[0], 0x11111111);
    kiln_hal_fence_release(f1);
    kiln_hal_fence_release(f2);
    kiln_hal_fence_release(f3);
    kiln_hal_semaphore_release(s);
    kiln_hal_buffer_release(a);
    kiln_hal_buffer_release(b);
    kiln_hal_device_release(device);
  }
}

KILN_TEST(reusable_with_binding_tables) {
  for (int d = 0; d < 2; ++d) {
    kiln_hal_device_t* device = make_device(kDrivers[d], 2, false);
    KILN_ASSERT_TRUE(device);
    kiln_hal_command_buffer_t* cb = NULL;
    KILN_ASSERT_OK(kiln_hal_command_buffer_create(
        device, KILN_HAL_COMMAND_BUFFER_MODE_REUSABLE, 2, &cb));
    uint32_t pattern = 0xDEADBEEF;
    // slot 0[4..12) = pattern; slot 1[0..16) = slot 0[0..16).
    KILN_EXPECT_OK(kiln_hal_command_buffer_fill_buffer(
        cb, kiln_hal_make_indirect_buffer_ref(0, 4, 8), &pattern, 4));
    KILN_EXPECT_OK(kiln_hal_command_buffer_execution_barrier(cb));
    KILN_EXPECT_OK(kiln_hal_command_buffer_copy_buffer(
        cb, kiln_hal_make_indirect_buffer_ref(0, 0, 0),
        kiln_hal_make_indirect_buffer_ref(1, 0, 0), 16));
    KILN_EXPECT_OK(kiln_hal_command_buffer_finalize(cb));

    kiln_hal_buffer_t* buffers[4];
    for (int i = 0; i < 4; ++i) {
      buffers[i] = make_buffer(device, 32);
      uint8_t zero = 0;
      KILN_EXPECT_OK(kiln_hal_buffer_map_fill(buffers[i], 0, 32, &zero, 1));
    }
    // Run 1: slot 0 = buffers[0], slot 1 = buffers[1] at offset 16.
    kiln_hal_buffer_binding_t b1[2] = {{buffers[0], 0, KILN_HAL_WHOLE_BUFFER},
                                       {buffers[1], 16, 16}};
    kiln_hal_buffer_binding_table_t t1 = {2, b1};
    KILN_EXPECT_OK(execute_and_wait(device, cb, &t1));
    // Run 2: slot 0 = buffers[2] at offset 8, slot 1 = buffers[3].
    kiln_hal_buffer_binding_t b2[2] = {{buffers[2], 8, 24},
                                       {buffers[3], 0, KILN_HAL_WHOLE_BUFFER}};
    kiln_hal_buffer_binding_table_t t2 = {2, b2};
    KILN_EXPECT_OK(execute_and_wait(device, cb, &t2));
    uint32_t w[8];
    KILN_EXPECT_OK(kiln_hal_buffer_map_read(buffers[0], 0, w, 32));
    KILN_EXPECT_EQ_INT(w[0], 0);
    KILN_EXPECT_EQ_INT(w[1], 0xDEADBEEF);
    KILN_EXPECT_EQ_INT(w[2], 0xDEADBEEF);
    KILN_EXPECT_EQ_INT(w[3], 0);
    KILN_EXPECT_OK(kiln_hal_buffer_map_read(buffers[1], 0, w, 32));
    KILN_EXPECT_EQ_INT(w[3], 0);
    KILN_EXPECT_EQ_INT(w[4], 0);
    KILN_EXPECT_EQ_INT(w[5], 0xDEADBEEF);
    KILN_EXPECT_EQ_INT(w[6], 0xDEADBEEF);
    KILN_EXPECT_OK(kiln_hal_buffer_map_read(buffers[2], 0, w, 32));
    KILN_EXPECT_EQ_INT(w[2], 0);
    KILN_EXPECT_EQ_INT(w[3], 0xDEADBEEF);
    KILN_EXPECT_EQ_INT(w[4], 0xDEADBEEF);
    KILN_EXPECT_OK(kiln_hal_buffer_map_read(buffers[3], 0, w, 32));
    KILN_EXPECT_EQ_INT(w[1], 0xDEADBEEF);
    KILN_EXPECT_EQ_INT(w[2], 0xDEADBEEF);
    KILN_EXPECT_EQ_INT(w[4], 0);
    // A too-small binding fails at execution, and the failure reaches the
    // signal fence.
    kiln_hal_buffer_binding_t b3[2] = {{buffers[0], 0, 8},
                                       {buffers[1], 0, KILN_HAL_WHOLE_BUFFER}};
    kiln_hal_buffer_binding_table_t t3 = {2, b3};
    kiln_status_t status = execute_and_wait(device, cb, &t3);
    KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_OUT_OF_RANGE);
    KILN_EXPECT_CONTAINS(kiln_status_message(status), "slot 0");
    kiln_status_free(status);
    // Missing table.
    KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE,
                       execute_and_wait(device, cb, NULL));
    for (int i = 0; i < 4; ++i) kiln_hal_buffer_release(buffers[i]);
    kiln_hal_command_buffer_release(cb);
    kiln_hal_device_release(device);
  }
}

KILN_TEST(wait_fence_failure_propagates) {
  for (int d = 0; d < 2; ++d) {
    kiln_hal_device_t* device = make_device(kDrivers[d], 1, false);
    KILN_ASSERT_TRUE(device);
    kiln_hal_buffer_t* a = make_buffer(device, 16);
    kiln_hal_semaphore_t *in = NULL, *out = NULL;
    KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &in));
    KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &out));
    kiln_hal_fence_t *wait = NULL, *signal = NULL;
    KILN_ASSERT_OK(kiln_hal_fence_create_at(in, 1, host(), &wait));
    KILN_ASSERT_OK(kiln_hal_fence_create_at(out, 1, host(), &signal));
    kiln_hal_fence_fail(
        wait, kiln_make_status(KILN_STATUS_CANCELLED, "upstream cancelled"));
    uint8_t zero = 0;
    kiln_status_t status =
        kiln_hal_device_queue_fill(device, wait, signal, a, 0, 16, &zero, 1);
    // local-sync reports the failure directly; both fail the signal fence.
    kiln_status_free(status);
    status = kiln_hal_fence_wait(signal, KILN_HAL_INFINITE_DEADLINE);
    KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_CANCELLED);
    KILN_EXPECT_CONTAINS(kiln_status_message(status), "upstream cancelled");
    kiln_status_free(status);
    kiln_hal_fence_release(wait);
    kiln_hal_fence_release(signal);
    kiln_hal_semaphore_release(in);
    kiln_hal_semaphore_release(out);
    kiln_hal_buffer_release(a);
    kiln_hal_device_release(device);
  }
}

KILN_TEST(async_queue_order) {
  // Work waiting on a host-signaled fence does not block the submitter, and
  // work ordered after it by fences runs after it: local-task queues it for
  // its queue thread; local-sync defers it and runs it on the thread that
  // signals the fence (here this one, which would deadlock if the
  // submission blocked).
  for (int d = 0; d < 2; ++d) {
    kiln_hal_device_t* device = make_device(kDrivers[d], 2, false);
    KILN_ASSERT_TRUE(device);
    kiln_hal_buffer_t* a = make_buffer(device, 4);
    uint32_t zero = 0;
    KILN_ASSERT_OK(kiln_hal_buffer_map_write(a, 0, &zero, 4));
    kiln_hal_semaphore_t* s = NULL;
    KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &s));
    kiln_hal_fence_t *host_fence = NULL, *f1 = NULL, *f2 = NULL;
    KILN_ASSERT_OK(kiln_hal_fence_create_at(s, 1, host(), &host_fence));
    KILN_ASSERT_OK(kiln_hal_fence_create_at(s, 2, host(), &f1));
    KILN_ASSERT_OK(kiln_hal_fence_create_at(s, 3, host(), &f2));
    uint32_t v1 = 1, v2 = 2;
    KILN_EXPECT_OK(
        kiln_hal_device_queue_write(device, host_fence, f1, &v1, a, 0, 4));
    KILN_EXPECT_OK(kiln_hal_device_queue_write(device, f1, f2, &v2, a, 0, 4));
    bool reached = true;
    KILN_EXPECT_OK(kiln_hal_fence_query(f2, &reached));
    KILN_EXPECT_FALSE(reached);
    uint32_t out = 7;
    KILN_EXPECT_OK(kiln_hal_buffer_map_read(a, 0, &out, 4));
    KILN_EXPECT_EQ_INT(out, 0);  // neither write ran yet
    KILN_EXPECT_OK(kiln_hal_fence_signal(host_fence));
    KILN_EXPECT_OK(kiln_hal_fence_wait(f2, KILN_HAL_INFINITE_DEADLINE));
    KILN_EXPECT_OK(kiln_hal_buffer_map_read(a, 0, &out, 4));
    KILN_EXPECT_EQ_INT(out, 2);
    KILN_EXPECT_OK(kiln_hal_device_queue_flush(device));
    kiln_hal_fence_release(host_fence);
    kiln_hal_fence_release(f1);
    kiln_hal_fence_release(f2);
    kiln_hal_semaphore_release(s);
    kiln_hal_buffer_release(a);
    kiln_hal_device_release(device);
  }
}

KILN_TEST(sync_deferred_work_fails_with_its_wait_fence) {
  kiln_hal_device_t* device = make_device("local-sync", 1, false);
  KILN_ASSERT_TRUE(device);
  kiln_hal_buffer_t* a = make_buffer(device, 4);
  uint32_t zero = 0;
  KILN_ASSERT_OK(kiln_hal_buffer_map_write(a, 0, &zero, 4));
  kiln_hal_semaphore_t *in = NULL, *in2 = NULL, *out = NULL;
  KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &in));
  KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &in2));
  KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &out));
  // A wait fence of two semaphores: the work runs once both are reached.
  kiln_hal_fence_t *wait = NULL, *signal = NULL;
  KILN_ASSERT_OK(kiln_hal_fence_create(2, host(), &wait));
  KILN_ASSERT_OK(kiln_hal_fence_insert(wait, in, 1));
  KILN_ASSERT_OK(kiln_hal_fence_insert(wait, in2, 5));
  KILN_ASSERT_OK(kiln_hal_fence_create_at(out, 1, host(), &signal));
  uint32_t v = 9;
  KILN_EXPECT_OK(
      kiln_hal_device_queue_write(device, wait, signal, &v, a, 0, 4));
  KILN_EXPECT_OK(kiln_hal_semaphore_signal(in, 1));
  bool reached = true;
  KILN_EXPECT_OK(kiln_hal_fence_query(signal, &reached));
  KILN_EXPECT_FALSE(reached);  // in2 is still at 0
  // A failed wait semaphore fails the deferred work's signal fence.
  kiln_hal_semaphore_fail(
      in2, kiln_make_status(KILN_STATUS_CANCELLED, "producer cancelled"));
  kiln_status_t status =
      kiln_hal_fence_wait(signal, KILN_HAL_INFINITE_DEADLINE);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_CANCELLED);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "producer cancelled");
  kiln_status_free(status);
  uint32_t got = 0;
  KILN_EXPECT_OK(kiln_hal_buffer_map_read(a, 0, &got, 4));
  KILN_EXPECT_EQ_INT(got, 0);

  // Work still deferred when the device goes away fails its signal fence
  // (no leak, no hang: ASan and the test's own exit check both).
  kiln_hal_semaphore_t *never = NULL, *out2 = NULL;
  KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &never));
  KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &out2));
  kiln_hal_fence_t *wait2 = NULL, *signal2 = NULL;
  KILN_ASSERT_OK(kiln_hal_fence_create_at(never, 1, host(), &wait2));
  KILN_ASSERT_OK(kiln_hal_fence_create_at(out2, 1, host(), &signal2));
  KILN_EXPECT_OK(
      kiln_hal_device_queue_write(device, wait2, signal2, &v, a, 0, 4));
  kiln_hal_buffer_release(a);
  kiln_hal_device_release(device);
  status = kiln_hal_fence_wait(signal2, KILN_HAL_INFINITE_DEADLINE);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_CANCELLED);
  KILN_EXPECT_CONTAINS(kiln_status_message(status), "released before");
  kiln_status_free(status);
  kiln_hal_fence_release(wait);
  kiln_hal_fence_release(signal);
  kiln_hal_fence_release(wait2);
  kiln_hal_fence_release(signal2);
  kiln_hal_semaphore_release(in);
  kiln_hal_semaphore_release(in2);
  kiln_hal_semaphore_release(out);
  kiln_hal_semaphore_release(never);
  kiln_hal_semaphore_release(out2);
}

KILN_TEST(queue_alloca_pool) {
  for (int d = 0; d < 2; ++d) {
    kiln_hal_device_t* device = make_device(kDrivers[d], 1, false);
    KILN_ASSERT_TRUE(device);
    kiln_hal_semaphore_t* s = NULL;
    KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &s));
    uint64_t value = 0;
    void* first_ptr = NULL;
    for (int round = 0; round < 3; ++round) {
      kiln_hal_fence_t *allocated = NULL, *freed = NULL;
      KILN_ASSERT_OK(kiln_hal_fence_create_at(s, ++value, host(), &allocated));
      KILN_ASSERT_OK(kiln_hal_fence_create_at(s, ++value, host(), &freed));
      kiln_hal_buffer_t* t = NULL;
      KILN_ASSERT_OK(kiln_hal_device_queue_alloca(device, NULL, allocated, NULL,
                                                  1000, &t));
      KILN_EXPECT_EQ_INT(kiln_hal_buffer_byte_length(t), 1000);
      KILN_EXPECT_EQ_INT((uintptr_t)kiln_hal_buffer_host_ptr(t) % 64, 0);
      if (!first_ptr) first_ptr = kiln_hal_buffer_host_ptr(t);
      // Reused from the pool after the previous round's dealloca.
      KILN_EXPECT_TRUE(kiln_hal_buffer_host_ptr(t) == first_ptr);
      uint8_t one = 1;
      KILN_EXPECT_OK(kiln_hal_device_queue_fill(device, allocated, NULL, t, 0,
                                                1000, &one, 1));
      KILN_EXPECT_OK(
          kiln_hal_device_queue_dealloca(device, allocated, freed, t));
      kiln_hal_buffer_release(t);
      KILN_EXPECT_OK(kiln_hal_fence_wait(freed, KILN_HAL_INFINITE_DEADLINE));
      KILN_EXPECT_OK(kiln_hal_device_queue_flush(device));
      kiln_hal_fence_release(allocated);
      kiln_hal_fence_release(freed);
    }
    kiln_hal_allocator_statistics_t stats;
    kiln_hal_allocator_query_statistics(kiln_hal_device_allocator(device),
                                        &stats);
    KILN_EXPECT_EQ_INT(stats.allocation_count, 1);
    kiln_hal_semaphore_release(s);
    kiln_hal_device_release(device);
  }
}

//===----------------------------------------------------------------------===//
// Native dispatch
//===----------------------------------------------------------------------===//

static uint8_t* read_file(const char* path, size_t* out_size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* data = (uint8_t*)malloc((size_t)size);
  if (fread(data, 1, (size_t)size, f) != (size_t)size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  *out_size = (size_t)size;
  return data;
}

static kiln_status_t prepare_native_file(
    kiln_hal_device_t* device, const char* path,
    kiln_hal_executable_t** out_executable) {
  size_t size = 0;
  uint8_t* data = read_file(path, &size);
  if (!data) {
    return kiln_make_status(KILN_STATUS_NOT_FOUND, "cannot read %s", path);
  }
  kiln_hal_executable_cache_t* cache = NULL;
  kiln_status_t status =
      kiln_hal_device_create_executable_cache(device, &cache);
  if (!status) {
    kiln_hal_executable_params_t params;
    memset(&params, 0, sizeof(params));
#if defined(__x86_64__)
    params.format = kiln_make_cstring_view("native-elf-x86_64");
#else
    params.format = kiln_make_cstring_view("native-elf-aarch64");
#endif
    params.data = data;
    params.data_length = size;
    status = kiln_hal_executable_cache_prepare_executable(cache, &params,
                                                          out_executable);
  }
  kiln_hal_executable_cache_release(cache);
  free(data);  // the loader keeps nothing from it
  return status;
}

static kiln_status_t prepare_native(kiln_hal_device_t* device,
                                    kiln_hal_executable_t** out_executable) {
  return prepare_native_file(device, KILN_TEST_ELEMENTWISE_LIBRARY_PATH,
                             out_executable);
}

// Two different native executables loaded one after the other (the first
// still alive, then after it is released) are two libraries: each has its
// own entry points.
KILN_TEST(native_two_libraries) {
  kiln_hal_device_t* device = make_device("local-sync", 0, true);
  KILN_ASSERT_TRUE(device);
  for (int round = 0; round < 2; ++round) {
    kiln_hal_executable_t* first = NULL;
    kiln_hal_executable_t* second = NULL;
    KILN_EXPECT_OK(prepare_native(device, &first));
    KILN_EXPECT_OK(
        prepare_native_file(device, KILN_TEST_SECOND_LIBRARY_PATH, &second));
    if (first && second) {
      KILN_EXPECT_EQ_INT(kiln_hal_executable_entry_point_count(first), 3);
      KILN_EXPECT_EQ_INT(kiln_hal_executable_entry_point_count(second), 1);
      kiln_hal_executable_entry_point_info_t info;
      KILN_EXPECT_OK(kiln_hal_executable_entry_point_info(second, 0, &info));
      KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(info.name, "negate"));
      KILN_EXPECT_OK(kiln_hal_executable_entry_point_info(first, 0, &info));
      KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(info.name, "add"));
    }
    // Round 1 releases in the other order, so descriptor numbers are
    // reused while the other library is still loaded.
    if (round == 0) {
      kiln_hal_executable_release(first);
      kiln_hal_executable_release(second);
    } else {
      kiln_hal_executable_release(second);
      kiln_hal_executable_release(first);
    }
  }
  // The second library alone after both were released.
  kiln_hal_executable_t* second = NULL;
  KILN_EXPECT_OK(
      prepare_native_file(device, KILN_TEST_SECOND_LIBRARY_PATH, &second));
  if (second) {
    KILN_EXPECT_EQ_INT(kiln_hal_executable_entry_point_count(second), 1);
    kiln_hal_executable_release(second);
  }
  kiln_hal_device_release(device);
}

KILN_TEST(native_refused_without_permission) {
  kiln_hal_device_t* device = make_device("local-sync", 0, false);
  KILN_ASSERT_TRUE(device);
  kiln_hal_executable_t* executable = NULL;
  kiln_status_t status = prepare_native(device, &executable);
  KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_PERMISSION_DENIED);
  KILN_EXPECT_CONTAINS(kiln_status_message(status),
                       "native executables are not allowed");
  kiln_status_free(status);
  // Unknown format.
  kiln_hal_executable_cache_t* cache = NULL;
  KILN_ASSERT_OK(kiln_hal_device_create_executable_cache(device, &cache));
  kiln_hal_executable_params_t params;
  memset(&params, 0, sizeof(params));
  params.format = kiln_make_cstring_view("spirv");
  KILN_EXPECT_FALSE(
      kiln_hal_executable_cache_can_prepare_format(cache, params.format));
  KILN_EXPECT_STATUS(KILN_STATUS_NOT_FOUND,
                     kiln_hal_executable_cache_prepare_executable(
                         cache, &params, &executable));
  kiln_hal_executable_cache_release(cache);
  kiln_hal_device_release(device);
}

KILN_TEST(native_bad_data) {
  kiln_hal_device_t* device = make_device("local-sync", 0, true);
  KILN_ASSERT_TRUE(device);
  kiln_hal_executable_cache_t* cache = NULL;
  KILN_ASSERT_OK(kiln_hal_device_create_executable_cache(device, &cache));
  uint8_t junk[128] = {0x7f, 'E', 'L', 'F', 2};
  kiln_hal_executable_params_t params;
  memset(&params, 0, sizeof(params));
#if defined(__x86_64__)
  params.format = kiln_make_cstring_view("native-elf-x86_64");
  junk[18] = 62;
#else
  params.format = kiln_make_cstring_view("native-elf-aarch64");
  junk[18] = 183;
#endif
  params.data = junk;
  params.data_length = sizeof(junk);
  kiln_hal_executable_t* executable = NULL;
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_hal_executable_cache_prepare_executable(
                         cache, &params, &executable));
  params.data_length = 10;
  KILN_EXPECT_STATUS(KILN_STATUS_INVALID_ARGUMENT,
                     kiln_hal_executable_cache_prepare_executable(
                         cache, &params, &executable));
  kiln_hal_executable_cache_release(cache);
  kiln_hal_device_release(device);
}

typedef struct {
  int count;
  char last_name[32];
  uint32_t last_workgroups;
  int64_t last_worker_ns;
  int64_t last_duration_ns;
} profile_t;

static void record_dispatch(void* user_data,
                            const kiln_hal_dispatch_profile_record_t* record) {
  profile_t* profile = (profile_t*)user_data;
  profile->count++;
  snprintf(profile->last_name, sizeof(profile->last_name), "%.*s",
           KILN_SV_ARG(record->entry_point_name));
  profile->last_workgroups = record->workgroup_count[0] *
                             record->workgroup_count[1] *
                             record->workgroup_count[2];
  profile->last_worker_ns = record->worker_ns;
  profile->last_duration_ns = record->end_ns - record->start_ns;
}

// Runs add (out = lhs + rhs) then scale (out2 = out * factor) over n
// elements with one reusable command buffer, returns out2 (malloc'ed).
static float* run_elementwise(const char* uri, uint32_t workers, uint32_t n,
                              const float* lhs, const float* rhs, float factor,
                              profile_t* profile) {
  kiln_hal_device_t* device = make_device(uri, workers, true);
  if (!device) return NULL;
  float* result = NULL;
  kiln_hal_executable_t* executable = NULL;
  kiln_status_t status = prepare_native(device, &executable);
  kiln_hal_buffer_t* buffers[4] = {0};
  for (int i = 0; i < 4 && !status; ++i) {
    buffers[i] = make_buffer(device, (uint64_t)n * 4);
    if (!buffers[i]) status = kiln_make_status(KILN_STATUS_INTERNAL, "alloc");
  }
  if (!status) status = kiln_hal_buffer_map_write(buffers[0], 0, lhs, n * 4);
  if (!status) status = kiln_hal_buffer_map_write(buffers[1], 0, rhs, n * 4);
  kiln_hal_command_buffer_t* cb = NULL;
  if (!status) {
    status = kiln_hal_command_buffer_create(
        device, KILN_HAL_COMMAND_BUFFER_MODE_REUSABLE, 4, &cb);
  }
  uint32_t groups = (n + 1023) / 1024;
  if (!status) {
    uint32_t count[3] = {groups, 1, 1};
    uint32_t constants[1] = {n};
    kiln_hal_buffer_ref_t refs[3] = {
        kiln_hal_make_indirect_buffer_ref(0, 0, KILN_HAL_WHOLE_BUFFER),
        kiln_hal_make_indirect_buffer_ref(1, 0, KILN_HAL_WHOLE_BUFFER),
        kiln_hal_make_indirect_buffer_ref(2, 0, KILN_HAL_WHOLE_BUFFER)};
    status = kiln_hal_command_buffer_dispatch(cb, executable, 0, count, 1,
                                              constants, 3, refs);
  }
  if (!status) status = kiln_hal_command_buffer_execution_barrier(cb);
  if (!status) {
    uint32_t count[3] = {groups, 2, 1};
    uint32_t constants[2];
    constants[0] = n;
    memcpy(&constants[1], &factor, 4);
    kiln_hal_buffer_ref_t refs[3] = {
        kiln_hal_make_indirect_buffer_ref(2, 0, KILN_HAL_WHOLE_BUFFER),
        kiln_hal_make_indirect_buffer_ref(0, 0, KILN_HAL_WHOLE_BUFFER),
        kiln_hal_make_indirect_buffer_ref(3, 0, KILN_HAL_WHOLE_BUFFER)};
    status = kiln_hal_command_buffer_dispatch(cb, executable, 1, count, 2,
                                              constants, 3, refs);
  }
  if (!status) status = kiln_hal_command_buffer_finalize(cb);
  if (!status && profile) {
    kiln_hal_profiling_sink_t sink = {record_dispatch, profile};
    status = kiln_hal_device_profiling_begin(device, &sink);
  }
  kiln_hal_buffer_binding_t bindings[4];
  for (int i = 0; i < 4; ++i) {
    bindings[i].buffer = buffers[i];
    bindings[i].offset = 0;
    bindings[i].length = KILN_HAL_WHOLE_BUFFER;
  }
  kiln_hal_buffer_binding_table_t table = {4, bindings};
  if (!status) status = execute_and_wait(device, cb, &table);
  if (!status && profile) status = kiln_hal_device_profiling_end(device);
  if (!status) {
    result = (float*)malloc((size_t)n * 4);
    status = kiln_hal_buffer_map_read(buffers[3], 0, result, n * 4);
  }
  if (status) {
    KILN_TEST_FAIL_("%s/%u: %s", uri, workers, kiln_status_message(status));
    kiln_status_free(status);
    free(result);
    result = NULL;
  }
  kiln_hal_command_buffer_release(cb);
  for (int i = 0; i < 4; ++i) kiln_hal_buffer_release(buffers[i]);
  kiln_hal_executable_release(executable);
  kiln_hal_device_release(device);
  return result;
}

static void fill_inputs(uint32_t n, float* lhs, float* rhs) {
  uint32_t state = 12345;
  for (uint32_t i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    lhs[i] = (float)(state >> 8) / 65536.0f - 128.0f;
    state = state * 1664525u + 1013904223u;
    rhs[i] = (float)(state >> 8) / 1048576.0f;
  }
}

KILN_TEST(native_dispatch_all_drivers) {
  const uint32_t n = 10000;  // not a multiple of the 1024 tile
  float* lhs = (float*)malloc(n * 4);
  float* rhs = (float*)malloc(n * 4);
  fill_inputs(n, lhs, rhs);
  const float factor = 0.75f;
  profile_t profile = {0};
  float* reference =
      run_elementwise("local-sync", 0, n, lhs, rhs, factor, &profile);
  KILN_ASSERT_TRUE(reference);
  for (uint32_t i = 0; i < n; ++i) {
    volatile float sum = lhs[i] + rhs[i];
    float expected = sum * factor;
    if (reference[i] != expected) {
      KILN_TEST_FAIL_("element %u: %g vs expected %g", i, reference[i],
                      expected);
      break;
    }
  }
  KILN_EXPECT_EQ_INT(profile.count, 2);
  KILN_EXPECT_STREQ(profile.last_name, "scale");
  KILN_EXPECT_EQ_INT(profile.last_workgroups, 2 * 10);
  KILN_EXPECT_TRUE(profile.last_worker_ns >= 0);
  uint32_t worker_counts[3] = {1, 2, 4};
  for (int w = 0; w < 3; ++w) {
    profile_t task_profile = {0};
    float* result = run_elementwise("local-task", worker_counts[w], n, lhs, rhs,
                                    factor, &task_profile);
    KILN_ASSERT_TRUE(result);
    KILN_EXPECT_TRUE(memcmp(result, reference, n * 4) == 0);
    KILN_EXPECT_EQ_INT(task_profile.count, 2);
    free(result);
  }
  free(reference);
  free(lhs);
  free(rhs);
}

KILN_TEST(native_dispatch_large_two_workers) {
  const uint32_t n = 4u << 20;
  float* lhs = (float*)malloc((size_t)n * 4);
  float* rhs = (float*)malloc((size_t)n * 4);
  fill_inputs(n, lhs, rhs);
  float* result = run_elementwise("local-task", 2, n, lhs, rhs, 2.0f, NULL);
  KILN_ASSERT_TRUE(result);
  uint32_t mismatches = 0;
  for (uint32_t i = 0; i < n; ++i) {
    volatile float sum = lhs[i] + rhs[i];
    if (result[i] != sum * 2.0f) ++mismatches;
  }
  KILN_EXPECT_EQ_INT(mismatches, 0);
  free(result);
  free(lhs);
  free(rhs);
}

// With a trace recorder installed, a dispatch on local-task records its
// zones from the submitting thread (an idle queue runs a ready submission
// inline) and the workers into per-thread buffers (run under TSan by the
// tsan label); the JSON names them. 2 threads are the submitting thread and
// one pool thread, so there is a kiln-hal-worker-0 and no -1.
KILN_TEST(native_dispatch_traced) {
  const uint32_t n = 1u << 20;
  float* lhs = (float*)malloc((size_t)n * 4);
  float* rhs = (float*)malloc((size_t)n * 4);
  fill_inputs(n, lhs, rhs);
  kiln_trace_recorder_t* recorder = NULL;
  KILN_ASSERT_OK(kiln_trace_recorder_create(NULL, host(), &recorder));
  kiln_trace_recorder_start(recorder);
  float* result = run_elementwise("local-task", 2, n, lhs, rhs, 2.0f, NULL);
  kiln_trace_recorder_stop(recorder);
  KILN_ASSERT_TRUE(result);
  char* text = NULL;
  size_t size = 0;
  FILE* stream = open_memstream(&text, &size);
  KILN_ASSERT_TRUE(stream != NULL);
  KILN_EXPECT_OK(kiln_trace_recorder_write_json(recorder, stream));
  fclose(stream);
#if defined(KILN_ENABLE_TRACING)
  KILN_EXPECT_CONTAINS(text, "\"name\":\"scale\"");
  KILN_EXPECT_CONTAINS(text, "\"name\":\"hal.command_buffer.execute\"");
  KILN_EXPECT_CONTAINS(text, "\"name\":\"kiln-hal-worker-0\"");
  KILN_EXPECT_TRUE(strstr(text, "kiln-hal-worker-1") == NULL);
  KILN_EXPECT_CONTAINS(text, "\"name\":\"hal.allocator\"");
  KILN_EXPECT_CONTAINS(text, "\"workgroup_count_y\":2");
#endif
  free(text);
  kiln_trace_recorder_release(recorder);
  free(result);
  free(lhs);
  free(rhs);
}

KILN_TEST(native_dispatch_failure) {
  for (int d = 0; d < 2; ++d) {
    kiln_hal_device_t* device = make_device(kDrivers[d], 2, true);
    KILN_ASSERT_TRUE(device);
    kiln_hal_executable_t* executable = NULL;
    KILN_ASSERT_OK(prepare_native(device, &executable));
    KILN_EXPECT_EQ_INT(kiln_hal_executable_entry_point_count(executable), 3);
    kiln_hal_executable_entry_point_info_t info;
    KILN_EXPECT_OK(kiln_hal_executable_entry_point_info(executable, 0, &info));
    KILN_EXPECT_EQ_INT(info.workgroup_size[0], 64);
    KILN_EXPECT_EQ_INT(info.local_memory_size, 4096);
    KILN_EXPECT_TRUE(kiln_string_view_equal_cstr(info.source_location,
                                                 "elementwise_library.c:17"));
    uint32_t ordinal = 0;
    KILN_EXPECT_OK(kiln_hal_executable_lookup_entry_point(
        executable, kiln_make_cstring_view("fail_on_2"), &ordinal));
    KILN_EXPECT_EQ_INT(ordinal, 2);
    kiln_hal_command_buffer_t* cb = NULL;
    KILN_ASSERT_OK(kiln_hal_command_buffer_create(
        device, KILN_HAL_COMMAND_BUFFER_MODE_ONE_SHOT, 0, &cb));
    uint32_t count[3] = {5, 1, 1};
    KILN_EXPECT_STATUS(KILN_STATUS_OUT_OF_RANGE,
                       kiln_hal_command_buffer_dispatch(
                           cb, executable, 3, count, 0, NULL, 0, NULL));
    KILN_EXPECT_OK(kiln_hal_command_buffer_dispatch(cb, executable, 2, count, 0,
                                                    NULL, 0, NULL));
    KILN_EXPECT_OK(kiln_hal_command_buffer_finalize(cb));
    kiln_status_t status = execute_and_wait(device, cb, NULL);
    KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INTERNAL);
    KILN_EXPECT_CONTAINS(kiln_status_message(status), "fail_on_2");
    KILN_EXPECT_CONTAINS(kiln_status_message(status), "(2, 0, 0)");
    kiln_status_free(status);
    kiln_hal_command_buffer_release(cb);
    kiln_hal_executable_release(executable);
    kiln_hal_device_release(device);
  }
}

// Past the submission's deadline no command or workgroup of a native
// dispatch starts (native dispatches are bounded by workgroup): the result is
// DEADLINE_EXCEEDED, not the failure workgroup 2 would report, and the
// device runs the next submission normally.
KILN_TEST(native_dispatch_past_deadline) {
  for (int d = 0; d < 2; ++d) {
    kiln_hal_device_t* device = make_device(kDrivers[d], 2, true);
    KILN_ASSERT_TRUE(device);
    kiln_hal_executable_t* executable = NULL;
    KILN_ASSERT_OK(prepare_native(device, &executable));
    uint32_t ordinal = 0;
    KILN_ASSERT_OK(kiln_hal_executable_lookup_entry_point(
        executable, kiln_make_cstring_view("fail_on_2"), &ordinal));
    kiln_hal_command_buffer_t* cb = NULL;
    KILN_ASSERT_OK(kiln_hal_command_buffer_create(
        device, KILN_HAL_COMMAND_BUFFER_MODE_REUSABLE, 0, &cb));
    uint32_t count[3] = {5, 1, 1};
    KILN_EXPECT_OK(kiln_hal_command_buffer_dispatch(cb, executable, ordinal,
                                                    count, 0, NULL, 0, NULL));
    KILN_EXPECT_OK(kiln_hal_command_buffer_finalize(cb));
    kiln_hal_semaphore_t* semaphore = NULL;
    KILN_ASSERT_OK(kiln_hal_device_create_semaphore(device, 0, &semaphore));
    kiln_hal_fence_t* signal = NULL;
    KILN_ASSERT_OK(kiln_hal_fence_create_at(semaphore, 1, host(), &signal));
    kiln_status_t status = kiln_hal_device_queue_execute_with_deadline(
        device, NULL, signal, 1, &cb, NULL, kiln_hal_now_ns() - 1);
    if (!status)
      status = kiln_hal_fence_wait(signal, KILN_HAL_INFINITE_DEADLINE);
    KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_DEADLINE_EXCEEDED);
    KILN_EXPECT_CONTAINS(kiln_status_message(status), "deadline passed");
    kiln_status_free(status);
    kiln_hal_fence_release(signal);
    kiln_hal_semaphore_release(semaphore);
    status = execute_and_wait(device, cb, NULL);
    KILN_EXPECT_EQ_INT(kiln_status_code(status), KILN_STATUS_INTERNAL);
    kiln_status_free(status);
    kiln_hal_command_buffer_release(cb);
    kiln_hal_executable_release(executable);
    kiln_hal_device_release(device);
  }
}

KILN_TEST_MAIN(KILN_TEST_CASE(device_creation), KILN_TEST_CASE(transfers),
               KILN_TEST_CASE(reusable_with_binding_tables),
               KILN_TEST_CASE(wait_fence_failure_propagates),
               KILN_TEST_CASE(async_queue_order),
               KILN_TEST_CASE(sync_deferred_work_fails_with_its_wait_fence),
               KILN_TEST_CASE(queue_alloca_pool),
               KILN_TEST_CASE(native_refused_without_permission),
               KILN_TEST_CASE(native_bad_data),
               KILN_TEST_CASE(native_two_libraries),
               KILN_TEST_CASE(native_dispatch_all_drivers),
               KILN_TEST_CASE(native_dispatch_large_two_workers),
               KILN_TEST_CASE(native_dispatch_traced),
               KILN_TEST_CASE(native_dispatch_failure),
               KILN_TEST_CASE(native_dispatch_past_deadline))
