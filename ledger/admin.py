"""The ledger in the admin: read-only (grants go through the user page's grant form)."""

from django.contrib import admin

from ledger.models import Account, EconomySettings, Posting, Transfer


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PostingInline(admin.TabularInline):
    model = Posting
    extra = 0
    readonly_fields = ["account", "amount", "balance_after"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "kind", "user", "code", "balance"]
    list_filter = ["kind"]
    search_fields = ["user__username", "code"]


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = ["pk", "kind", "reason", "idempotency_key", "staff", "created_at"]
    list_filter = ["kind"]
    search_fields = ["reason", "idempotency_key"]
    inlines = [PostingInline]


@admin.register(Posting)
class PostingAdmin(ReadOnlyAdmin):
    list_display = ["pk", "transfer", "account", "amount", "balance_after"]


@admin.register(EconomySettings)
class EconomySettingsAdmin(admin.ModelAdmin):
    list_display = ["signup_grant", "relief_threshold", "relief_amount", "relief_per_day"]

    def has_add_permission(self, request):
        return not EconomySettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
