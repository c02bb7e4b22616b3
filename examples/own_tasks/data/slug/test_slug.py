from slug import slugify

assert slugify("Hello, World!") == "hello-world", slugify("Hello, World!")
assert slugify("  Memory   Transfer ") == "memory-transfer"
print("ok")
