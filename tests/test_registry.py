"""The tool registry: schemas shown to agents and the runner's execution rules (TOOLS.md 1)."""

import json

import pytest

from egoeval.tasks import egobench as suite
from egoeval.tools.egobench import ENVIRONMENTS
from egoeval.tasks.egobench import tool_schemas
from egoeval.tools.registry import ToolRegistry

REG = ToolRegistry()


@pytest.mark.parametrize("scenario,count", [("retail", 21), ("kitchen", 28), ("restaurant", 27), ("order", 27)])
def test_openai_schemas_cover_every_documented_tool(scenario, count):
    schemas = REG.schemas(tool_schemas(scenario))
    names = [s["function"]["name"] for s in schemas]
    assert len(names) == count and all(s["type"] == "function" for s in schemas)
    assert sorted(names) == sorted(ENVIRONMENTS[scenario].tools)
    assert all(s["function"]["parameters"]["type"] == "object" for s in schemas)


def test_schema_parameter_names_differ_from_the_implementation_only_where_documented():
    # TOOLS.md section 7: schema says product_name/dish_name where the implementation takes name
    expected = {("retail", "add_product"), ("retail", "delete_product")} | {
        (s, t) for s in ("restaurant", "order")
        for t in ("add_dish_to_catalog", "remove_dish_from_catalog", "update_dish_price", "update_dish_discount")}
    found = set()
    for scenario, env in ENVIRONMENTS.items():
        for s in REG.schemas(tool_schemas(scenario)):
            fn = s["function"]
            if set(fn["parameters"].get("properties", {})) - set(env.members[fn["name"]]):
                found.add((scenario, fn["name"]))
    assert found == expected


def env(scenario="retail", seed="retail_init_data1"):
    return REG.new_env(scenario, suite.seed(seed))


def content(result):
    return json.loads(result.content)


def test_errors_are_results_with_categories():
    e = env()
    missing = REG.execute(e, {"parameters": {}})
    assert content(missing) == {"error": "Missing tool identifier ('tool_name' or 'name')"}
    assert missing.tool_name == "unknown" and missing.error == "malformed_call"
    unknown = REG.execute(e, {"tool_name": "teleport", "parameters": {}})
    assert content(unknown) == {"error": "Tool 'teleport' not found"} and unknown.error == "unknown_tool"
    schema_name = REG.execute(e, {"tool_name": "delete_product", "parameters": {"product_name": "x"}})
    assert schema_name.error == "tool_error" and "unexpected keyword argument 'product_name'" in content(schema_name)["error"]
    assert REG.execute(e, "get_price").error == "malformed_call"


def test_arguments_key_is_accepted_live_and_results_are_normalised():
    e = env()
    r = REG.execute(e, {"name": "get_price", "arguments": {"product_name": "Souda Red Wine"}})
    assert r.error is None and content(r) == {"products": [{"product_name": "souda red wine", "price": 239}], "count": 1}
    added = REG.execute(e, {"tool_name": "add_to_cart", "parameters": {
        "user_id": "u", "product_name": "X", "qty": 1, "category": "wine", "price": 0.1, "tax_rate": 0, "discount": 1}})
    assert added.error is None
    cart = content(REG.execute(e, {"tool_name": "get_cart", "parameters": {"user_id": "u"}}))
    # floats rounded to 10 places, integral ones written as integers
    assert cart["cart_items"][0]["quantity"] == 1 and isinstance(cart["cart_items"][0]["quantity"], int)


def test_log_shape():
    r = REG.execute(env(), {"tool_name": "list_discounted_products", "parameters": {}})
    log = r.to_log()
    assert log["role"] == "tool" and log["tool_name"] == "list_discounted_products"
    assert isinstance(json.loads(log["content"])["product_names"], list)
