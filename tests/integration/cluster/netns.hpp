// A network namespace for one test (needs root and iproute2): `ip netns add`,
// a veth pair with the host end at HOST_ADDRESS and the namespace's end at
// ADDRESS (a /30 of 10.0.0.0/8 of its own), loopback up. Processes run in it
// through exec_prefix(); cut() takes the host end down (the namespace loses
// every route out), restore() brings it back. Removed with the object.
#pragma once

#include <string>
#include <vector>

namespace cuzk::test {

class netns {
 public:
  explicit netns(int index);  // index: 0..63, unique among the test's namespaces
  ~netns();
  netns(const netns&) = delete;
  netns& operator=(const netns&) = delete;

  const std::string& name() const { return name_; }
  const std::string& address() const { return ns_addr_; }
  const std::string& host_address() const { return host_addr_; }
  /* {"ip", "netns", "exec", NAME}: a command after it runs in the namespace. */
  std::vector<std::string> exec_prefix() const { return {ip_, "netns", "exec", name_}; }
  std::string exec_shell() const { return ip_ + " netns exec " + name_ + " "; }
  void cut();
  void restore();

 private:
  std::string ip_;  // the ip binary's path (processes are spawned without a PATH search)
  std::string name_, host_if_, ns_if_, host_addr_, ns_addr_;
};

}  // namespace cuzk::test
