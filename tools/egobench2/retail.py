"""Retail environment of the 2026 release (docs/egobench2/retail.md).

The 2026 retail tools behave exactly as in the first release
(``egoeval.tools.egobench.retail``, TOOLS.md section 3) except for the points below, so
:class:`RetailEnv` subclasses the first-release environment and overrides only those:

1. ``add_product`` takes ``product_name`` (as the schema always said), not ``name``;
2. ``delete_product`` takes ``product_name``, not ``name``;
3. ``find_products_by_allergen`` is gone (from the implementation and the schema): calling it
   is a call to an unknown tool, and the scorer keeps its parameters unfiltered.

Everything else (seed loading, the other tools, their messages and errors, the hashed state
document) is unchanged. Allergens are still stored with each product, but no 2026 tool reads
them and the hash leaves them out.
"""

from __future__ import annotations

from typing import Any

from egoeval.tools.egobench.base import tool
from egoeval.tools.egobench.retail import RetailEnv as FirstReleaseRetailEnv


class _Removed:
    """A class attribute that hides an inherited tool.

    Reading it, from the class or an instance, raises AttributeError, so the member
    discovery of ``ScenarioEnv.__init_subclass__`` (which reads ``getattr(cls, name, None)``)
    skips it, ``hasattr`` is false and the tool registry answers "not found".
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        where = owner.__name__ if owner is not None else "object"
        raise AttributeError(f"{where!r} has no tool {self.name!r} (removed in the 2026 release)")


class RetailEnv(FirstReleaseRetailEnv):
    """Retail as released in 2026 (module docstring)."""

    find_products_by_allergen = _Removed()

    @tool
    def add_product(self, product_name, category, price, tax_rate, discount, nutritional_characteristics,
                    taste, country_of_origin, nutrition, allergens=None, sell_type="single_item"):
        # The reference keeps the given allergens only when they are truthy (else an empty
        # list); unobservable today, since nothing reads or hashes them, but kept exact.
        return super().add_product(
            name=product_name, category=category, price=price, tax_rate=tax_rate, discount=discount,
            nutritional_characteristics=nutritional_characteristics, taste=taste,
            country_of_origin=country_of_origin, nutrition=nutrition,
            allergens=allergens if allergens else None, sell_type=sell_type,
        )

    @tool
    def delete_product(self, product_name):
        return super().delete_product(name=product_name)
