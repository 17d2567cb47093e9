from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class RegisterForm(UserCreationForm):
    nickname = forms.CharField(label="暱稱", max_length=24, required=False)

    class Meta:
        model = User
        fields = ["username", "nickname"]
        labels = {"username": "帳號"}
