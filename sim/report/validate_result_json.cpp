// The one writer of the validation's result JSON, and its reader.
#include "sim/report/validate_result_json.hpp"

#include "sim/report/uncertainty_json.hpp"

#include "sim/report/json_fields.hpp"
#include "sim/report/result_file.hpp"

namespace iowall {

using nlohmann::json;

namespace {

json summary_json(const ValidateSummary& s) {
  return {{"points", s.points},
          {"median_abs_error", s.median_abs_error},
          {"worst_abs_error", s.worst_abs_error},
          {"median_spread", s.median_spread}};
}

json point_json(const ValidatePoint& p) {
  json row = {{"point", p.point},
              {"set", p.set},
              {"method", p.method},
              {"repeats", p.repeats},
              {"measured_median", p.measured_median},
              {"measured_min", p.measured_min},
              {"measured_max", p.measured_max},
              {"spread", p.spread},
              {"measured_median_Bps", p.measured_median_Bps},
              {"measured_min_Bps", p.measured_min_Bps},
              {"measured_max_Bps", p.measured_max_Bps}};
  if (const auto& q = p.prediction) {
    row["predicted"] = q->predicted;
    row["predicted_Bps"] = q->predicted_Bps;
    row["error"] = q->error;
    row["limited_by"] = q->limited_by;
    if (q->interval_Bps) {
      row["interval_Bps"] = to_json(*q->interval_Bps);
      row["in_interval"] = q->interval_Bps->low <= p.measured_median_Bps && p.measured_median_Bps <= q->interval_Bps->high;
    }
  }
  return row;
}

ValidateSummary summary_from(const JsonFields& f, const char* key) {
  if (!f.has(key)) return {};
  const JsonFields s(f.at(key), f.file(), f.pointer(key));
  return {static_cast<int>(s.integer("points")), s.number("median_abs_error"), s.number("worst_abs_error"),
          s.number("median_spread")};
}

ValidatePoint point_from(const JsonFields& f) {
  ValidatePoint p;
  p.point = f.text("point");
  p.set = f.text("set");
  p.method = f.text("method");
  p.repeats = f.unsigned_integer("repeats");
  p.measured_median = f.text("measured_median");
  p.measured_min = f.text("measured_min");
  p.measured_max = f.text("measured_max");
  p.spread = f.number("spread");
  p.measured_median_Bps = f.number("measured_median_Bps");
  p.measured_min_Bps = f.number("measured_min_Bps");
  p.measured_max_Bps = f.number("measured_max_Bps");
  if (f.has("predicted_Bps"))
    p.prediction = ValidatePrediction{f.text("predicted"), f.number("predicted_Bps"), f.number("error"),
                                      f.text("limited_by"), std::nullopt};
  if (p.prediction && f.has("interval_Bps")) p.prediction->interval_Bps = interval_from(f, "interval_Bps");
  return p;
}

}  // namespace

json to_json(const ValidateResult& r) {
  json by_type = json::object();
  for (const auto& [xfer, s] : r.held_out_by_type) by_type[xfer] = summary_json(s);
  json points = json::array();
  for (const ValidatePoint& p : r.points) points.push_back(point_json(p));
  return {{"iowall_result", result_marker("validate")},
          {"fidelity", r.fidelity},
          {"fit_subset", r.fit_subset},
          {"fit", r.fit},
          {"full_profile", r.full_profile},
          {"held_out", summary_json(r.held_out)},
          {"in_sample", summary_json(r.in_sample)},
          {"held_out_by_type", by_type},
          {"points", points}};
}

ValidateResult validate_result_from_json(const json& j, const std::string& file) {
  const JsonFields f(j, file, "");
  if (!f.has("points") || !f.at("points").is_array()) f.fail("points", "missing or not an array of points");
  ValidateResult r;
  const json& points = f.at("points");
  for (std::size_t i = 0; i < points.size(); ++i)
    r.points.push_back(point_from(JsonFields(points[i], file, f.pointer("points", i))));
  r.fidelity = f.text("fidelity");
  r.fit_subset = f.text("fit_subset");
  if (f.has("fit")) r.fit = f.at("fit");
  r.full_profile = f.text("full_profile");
  r.held_out = summary_from(f, "held_out");
  r.in_sample = summary_from(f, "in_sample");
  if (f.has("held_out_by_type")) {
    const JsonFields by(f.at("held_out_by_type"), file, f.pointer("held_out_by_type"));
    for (const auto& item : f.at("held_out_by_type").items())
      r.held_out_by_type[item.key()] = summary_from(by, item.key().c_str());
  }
  return r;
}

}  // namespace iowall
