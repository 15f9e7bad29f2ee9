#include "vapid.h"

#include <curl/curl.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace viktory::notify {

VapidKeys VapidKeys::generate() { return VapidKeys(EcKey::generate()); }

VapidKeys VapidKeys::from_text(std::string_view text) {
  const auto scalar = base64url_decode(text);
  if (!scalar) throw CryptoError("the VAPID key is not base64url");
  return VapidKeys(EcKey::from_private(*scalar));
}

std::string VapidKeys::to_text() const { return base64url_encode(key_.private_scalar()); }

std::string VapidKeys::public_key_base64url() const {
  return base64url_encode(key_.public_point());
}

std::string VapidKeys::make_jwt(std::string_view audience, std::string_view subject,
                                std::chrono::system_clock::time_point expires) const {
  const nlohmann::json header = {{"typ", "JWT"}, {"alg", "ES256"}};
  const nlohmann::json claims = {
      {"aud", std::string(audience)},
      {"exp", std::chrono::duration_cast<std::chrono::seconds>(expires.time_since_epoch()).count()},
      {"sub", std::string(subject)}};
  const std::string signing_input =
      base64url_encode(header.dump()) + "." + base64url_encode(claims.dump());
  return signing_input + "." + base64url_encode(key_.sign_es256(signing_input));
}

std::string VapidKeys::authorization_header(std::string_view endpoint, std::string_view subject,
                                            std::chrono::system_clock::time_point now) const {
  // RFC 8292 allows up to 24 hours; 12 leaves room for a push service whose clock runs ahead.
  const auto expires = now + std::chrono::hours(12);
  return "vapid t=" + make_jwt(url_origin(endpoint), subject, expires) +
         ", k=" + public_key_base64url();
}

std::string url_origin(std::string_view url) {
  std::unique_ptr<CURLU, void (*)(CURLU*)> handle(curl_url(), curl_url_cleanup);
  if (!handle) throw std::runtime_error("curl_url failed");
  const std::string text(url);
  if (curl_url_set(handle.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK) {
    throw std::invalid_argument("not an absolute URL");
  }
  auto part = [&](CURLUPart which) -> std::string {
    char* value = nullptr;
    if (curl_url_get(handle.get(), which, &value, 0) != CURLUE_OK || value == nullptr) return {};
    std::string result(value);
    curl_free(value);
    return result;
  };
  const std::string scheme = part(CURLUPART_SCHEME);
  if (scheme != "https" && scheme != "http") throw std::invalid_argument("not an http(s) URL");
  const std::string host = part(CURLUPART_HOST);
  if (host.empty()) throw std::invalid_argument("URL without a host");
  const std::string port = part(CURLUPART_PORT);  // only when the URL names one
  return scheme + "://" + host + (port.empty() ? "" : ":" + port);
}

}  // namespace viktory::notify
