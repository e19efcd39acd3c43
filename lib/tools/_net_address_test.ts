import assert from "node:assert/strict";
import { blockedAddressReason, parseIpv4, parseIpv6 } from "./_net_address.ts";

Deno.test("blockedAddressReason() names every local, private and metadata range", () => {
  const rows: Array<[string, string]> = [
    ["127.0.0.1", "a loopback address"],
    ["127.255.0.9", "a loopback address"],
    ["0.0.0.0", 'a "this network" address (0.0.0.0 reaches this machine)'],
    ["10.1.2.3", "a private address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.1.1", "a private address"],
    ["100.64.0.1", "a shared (carrier-grade NAT) address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["169.254.1.1", "a link-local address"],
    ["192.0.0.8", "a reserved address"],
    ["198.19.0.1", "a reserved address"],
    ["224.0.0.1", "a multicast address"],
    ["240.0.0.1", "a reserved address"],
    ["255.255.255.255", "the broadcast address"],
    ["::", "the unspecified IPv6 address (it reaches this machine)"],
    ["::1", "the IPv6 loopback address"],
    ["0:0:0:0:0:0:0:1", "the IPv6 loopback address"],
    ["[::1]", "the IPv6 loopback address"],
    ["::ffff:127.0.0.1", "the IPv4-mapped form of 127.0.0.1, a loopback address"],
    ["::ffff:7f00:1", "the IPv4-mapped form of 127.0.0.1, a loopback address"],
    ["::ffff:a9fe:a9fe", "the IPv4-mapped form of 169.254.169.254, a cloud metadata address"],
    ["64:ff9b::a00:1", "the NAT64 form of 10.0.0.1, a private address"],
    ["2002:7f00:1::", "the 6to4 form of 127.0.0.1, a loopback address"],
    ["2001:0:1:2:3:4:80ff:fffe", "the Teredo form of 127.0.0.1, a loopback address"],
    ["::7f00:1", "a deprecated IPv4-compatible IPv6 address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["fc00::1", "a unique-local IPv6 address"],
    ["fdff:1::1", "a unique-local IPv6 address"],
    ["fe80::1", "a link-local IPv6 address"],
    ["febf::1", "a link-local IPv6 address"],
    ["fec0::1", "a site-local IPv6 address"],
    ["ff02::1", "a multicast IPv6 address"],
    ["64:ff9b:1::1", "a local-use NAT64 address"],
    ["example.com", "not an IP address"],
  ];
  for (const [address, want] of rows) assert.equal(blockedAddressReason(address), want, address);
});

Deno.test("blockedAddressReason() lets public addresses through (control)", () => {
  const rows = [
    "93.184.215.14",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "169.253.1.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "fbff::1",
    "fe00::1",
  ];
  for (const address of rows) assert.equal(blockedAddressReason(address), undefined, address);
});

Deno.test("parseIpv4() and parseIpv6() take only well-formed literals", () => {
  assert.deepEqual(parseIpv4("1.2.3.4"), [1, 2, 3, 4]);
  for (const bad of ["1.2.3", "1.2.3.256", "01.2.3.4", "1.2.3.4.5", "a.b.c.d", ""]) {
    assert.equal(parseIpv4(bad), undefined, bad);
  }
  assert.deepEqual(parseIpv6("1::2")?.slice(0, 2), [0, 1]);
  assert.equal(parseIpv6("1::2")?.[15], 2);
  for (
    const bad of ["1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "12345::", "::1.2.3.4:5", ":1"]
  ) {
    assert.equal(parseIpv6(bad), undefined, bad);
  }
});
