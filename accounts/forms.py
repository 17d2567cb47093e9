from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class RegisterForm(UserCreationForm):
    nickname = forms.CharField(label=_("暱稱"), max_length=24, required=False)

    class Meta:
        model = User
        fields = ["username", "nickname"]
        labels = {"username": _("帳號")}
