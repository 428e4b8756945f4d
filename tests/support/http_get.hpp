// A one-request HTTP/1.1 client (Boost.Beast) for the metrics endpoint's and
// the gateway's tests: a bearer token and a JSON body when given.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <string>

namespace cuzk::test {

struct http_result {
  unsigned status = 0;
  std::string content_type, body;
};

inline http_result http_request(unsigned short port, const std::string& target,
                                boost::beast::http::verb verb = boost::beast::http::verb::get,
                                const std::string& bearer = {}, const std::string& json_body = {}) {
  namespace beast = boost::beast;
  namespace http = beast::http;
  boost::asio::io_context io;
  beast::tcp_stream s(io);
  s.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> rq(verb, target, 11);
  rq.set(http::field::host, "127.0.0.1");
  if (!bearer.empty()) rq.set(http::field::authorization, "Bearer " + bearer);
  if (!json_body.empty()) {
    rq.set(http::field::content_type, "application/json");
    rq.body() = json_body;
    rq.prepare_payload();
  }
  http::write(s, rq);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(s, buf, res);
  return {res.result_int(), std::string(res[http::field::content_type]), res.body()};
}

}  // namespace cuzk::test
