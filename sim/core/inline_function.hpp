// A callable stored inline in a fixed buffer: no heap allocation, trivially copyable
// captures only. Used for completion callbacks on hot paths.
#pragma once
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace iowall {

template <typename Sig, std::size_t N = 24>
class InlineFunction;

template <typename R, typename... Args, std::size_t N>
class InlineFunction<R(Args...), N> {
public:
  InlineFunction() = default;
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, InlineFunction>>>
  InlineFunction(F&& f) {  // NOLINT: implicit by design, like std::function
    using Fn = std::decay_t<F>;
    static_assert(sizeof(Fn) <= N, "callback captures too much: capture pointers and small values");
    static_assert(std::is_trivially_copyable_v<Fn>, "callback captures must be trivially copyable");
    ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
    invoke_ = [](void* p, Args... args) -> R { return (*std::launder(static_cast<Fn*>(p)))(args...); };
  }
  explicit operator bool() const { return invoke_ != nullptr; }
  R operator()(Args... args) const {
    return invoke_(const_cast<unsigned char*>(storage_), std::forward<Args>(args)...);
  }

private:
  R (*invoke_)(void*, Args...) = nullptr;
  alignas(8) unsigned char storage_[N]{};
};

}  // namespace iowall
