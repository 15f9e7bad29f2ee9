// Entry points of verifier.wasm: the engine and verify_record for the browser
// (web-client/js/verify.js). Strings cross as UTF-8 bytes in the module's memory: the caller
// reserves room with verifier_alloc, writes the record (and a witness, or nothing), calls
// verifier_verify and reads the report JSON at verifier_output_ptr/verifier_output_len.
//
// Debian's wasm32 libc++ has no exception support: a `throw` cannot be caught here. Only a
// malformed record or witness throws (the strict readers' JsonError, nlohmann's parse_error),
// so __cxa_throw below stores the exception's message as an "unreadable" report and traps;
// the caller reads that report and throws the instance away (its stack is left unwound).
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

#include "game_record.h"
#include "verify.h"

namespace {

std::string g_output;
// What is being read, so that a JSON syntax error is worded as viktory-verify words it.
const char* g_reading = "record";

void set_unreadable(std::string_view message) {
  nlohmann::json report = {{"verified", false},
                           {"unreadable", true},
                           {"failure", std::string(message)},
                           {"summary", "unreadable: " + std::string(message)}};
  g_output = report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" {

// Every type thrown by the code compiled into this module (JsonError, std::invalid_argument,
// nlohmann's exceptions) derives from std::exception by single, non-virtual inheritance, so
// the thrown object starts with its std::exception.
[[noreturn]] void __cxa_throw(void* thrown, std::type_info* type, void (*)(void*)) {
  const char* what = static_cast<std::exception*>(thrown)->what();
  if (*type == typeid(nlohmann::json::parse_error)) {
    set_unreadable(std::string(g_reading) + ": not valid JSON: " + what);
  } else {
    set_unreadable(what);
  }
  __builtin_trap();
}

void* __cxa_allocate_exception(std::size_t size) noexcept {
  void* memory = std::malloc(size);
  if (!memory) __builtin_trap();
  return memory;
}

__attribute__((export_name("verifier_alloc"))) void* verifier_alloc(std::size_t size) {
  return std::malloc(size == 0 ? 1 : size);
}

__attribute__((export_name("verifier_free"))) void verifier_free(void* memory) {
  std::free(memory);
}

// Returns 0 verified, 1 not verified (the report says why). A malformed input traps after
// leaving an "unreadable" report.
__attribute__((export_name("verifier_verify"))) int verifier_verify(const char* record,
                                                                    std::size_t record_size,
                                                                    const char* witness,
                                                                    std::size_t witness_size) {
  set_unreadable("the verifier stopped before it finished");
  g_reading = "record";
  const auto parsed = viktory::protocol::parse_record(std::string_view(record, record_size));
  std::optional<viktory::protocol::Witness> seen;
  if (witness && witness_size > 0) {
    g_reading = "witness";
    seen = viktory::protocol::parse_witness(std::string_view(witness, witness_size));
  }
  const auto report = viktory::protocol::verify_record(parsed, seen ? &*seen : nullptr);
  g_output = viktory::protocol::report_to_json(report).dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  return report.verified ? 0 : 1;
}

// A player's contribution commitment (docs/fair-play.md), for the client that takes a seat:
// the 32 bytes at `contribution` in, SHA-256("viktory contribution v1\0" || contribution) out as
// 64 hex digits at verifier_output_ptr/verifier_output_len. Plain HTTP has no WebCrypto.
__attribute__((export_name("verifier_contribution_commitment"))) void
verifier_contribution_commitment(const std::uint8_t* contribution) {
  viktory::protocol::fair::Contribution bytes{};
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = contribution[i];
  g_output =
      viktory::protocol::fair::to_hex(viktory::protocol::fair::contribution_commitment(bytes));
}

__attribute__((export_name("verifier_output_ptr"))) const char* verifier_output_ptr() {
  return g_output.data();
}

__attribute__((export_name("verifier_output_len"))) std::size_t verifier_output_len() {
  return g_output.size();
}

}  // extern "C"
