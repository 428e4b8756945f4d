// Webhooks: the signature against OpenSSL's HMAC and SHA-256 (random
// tokens and bodies, the seed printed), and which callback URLs an
// allow-list admits.
#include "gateway/webhooks.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include "seed.hpp"

namespace cuzk::gateway {
namespace {

std::string hex(const unsigned char* p, std::size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += {d[p[i] >> 4], d[p[i] & 15]};
  return s;
}

TEST(Webhooks, TheSignatureIsHmacSha256OfTimeDotBodyUnderTheTokensSha256) {
  auto rng = test::rng(0x3eb);
  for (int i = 0; i < 50; ++i) {
    std::string token = "cuzk_", body;
    for (int j = 0; j < 43; ++j) token += static_cast<char>('A' + rng() % 26);
    body.resize(rng() % 5000);
    for (auto& c : body) c = static_cast<char>(rng());
    const long long t = 1'700'000'000 + static_cast<long long>(rng() % 100'000'000);
    unsigned char secret[SHA256_DIGEST_LENGTH], mac[EVP_MAX_MD_SIZE];
    SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), secret);
    const std::string msg = std::to_string(t) + "." + body;
    unsigned len = 0;
    HMAC(EVP_sha256(), secret, sizeof secret, reinterpret_cast<const unsigned char*>(msg.data()), msg.size(), mac,
         &len);
    EXPECT_EQ(webhook_signature(token, body, t), "t=" + std::to_string(t) + ",v1=" + hex(mac, len));
  }
}

TEST(Webhooks, OnlyHostsAndRangesOnTheAllowListAreAccepted) {
  key_limits limits(10);
  node_endpoints nodes({"ipc:///nowhere"});
  webhook_options o;
  o.allow = {"hooks.example.com", "203.0.113.0/24", "fd00::/8"};
  webhooks w(o, nodes, limits, 4);
  for (const char* ok : {"https://hooks.example.com/cuzk", "http://HOOKS.example.com:8080/x?y=1", "http://203.0.113.7/",
                         "https://[fd00::1]:8443/h"})
    EXPECT_FALSE(w.check_url(ok)) << ok << ": " << *w.check_url(ok);
  for (const char* bad :
       {"https://evil.example.com/", "http://127.0.0.1/", "http://10.0.0.1/", "http://203.0.114.1/", "http://[::1]/",
        "ftp://hooks.example.com/", "https://user@hooks.example.com/", "https://hooks.example.com:0/",
        "https://hooks.example.com:99999/", "https://hooks.example.com/a b", "hooks.example.com", "http://[fd00::1/"})
    EXPECT_TRUE(w.check_url(bad)) << bad << " was accepted";
  EXPECT_NE(w.check_url("http://10.0.0.1/")->find("not on this gateway's allow-list"), std::string::npos);
  EXPECT_THROW(webhooks(webhook_options{{"10.0.0.0/99"}}, nodes, limits, 4), std::invalid_argument);
}

TEST(Webhooks, AKeyHasAtMostItsNumberPending) {
  key_limits limits(10);
  node_endpoints nodes({"ipc:///nowhere"});
  webhooks w(webhook_options{{"hooks.example.com"}}, nodes, limits, 2);
  auto a = w.reserve("alice"), b = w.reserve("alice");
  EXPECT_TRUE(a && b);
  EXPECT_FALSE(w.reserve("alice"));
  EXPECT_TRUE(w.reserve("bob"));
}

}  // namespace
}  // namespace cuzk::gateway
